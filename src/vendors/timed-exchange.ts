import type { Clock } from "../runtime/clock.js";
import { NETWORK_ERROR, TIMEOUT, VendorError } from "./vendor-error.js";
import type { VendorTransport } from "./vendor-transport.js";
import type { WireRequest, WireResponse } from "./wire.js";

/**
 * One exchange with a vendor under a timeout: no answer in time, or none at all (a refused or
 * dropped connection), becomes a transient VendorError the retry policy knows; any answer, a 5xx
 * included, is the caller's to read.
 */
export function timedExchange(
  transport: VendorTransport,
  request: WireRequest,
  vendor: string,
  timeoutMs: number,
  clock: Clock,
): Promise<WireResponse> {
  const abort = new AbortController();
  return new Promise((resolve, reject) => {
    const timer = clock.setTimer(() => {
      abort.abort();
      reject(
        new VendorError({ vendor, code: TIMEOUT, message: `${vendor} did not answer in ${timeoutMs} ms` }),
      );
    }, timeoutMs);
    transport.send(request, abort.signal).then(
      (response) => {
        timer.cancel();
        resolve(response);
      },
      (error: unknown) => {
        timer.cancel();
        reject(
          new VendorError({
            vendor,
            code: NETWORK_ERROR,
            message: `${vendor} could not be reached: ${(error as Error)?.message ?? String(error)}`,
          }),
        );
      },
    );
  });
}
