/**
 * How wire requests reach a vendor. Both transports give back the vendor's answer whatever its
 * status, and reject only when no answer came (connection refused or reset, aborted).
 */
import type { WireRequest, WireResponse } from "./wire.js";

export interface VendorTransport {
  /** `signal` aborts the exchange when the client stops waiting (its per-attempt timeout). */
  send(request: WireRequest, signal: AbortSignal): Promise<WireResponse>;
}
