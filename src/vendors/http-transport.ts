/**
 * Wire requests over HTTP: to a live vendor's base URL, or to the vendor-sim app in the
 * distributed runtime (`<vendor-sim url>/<vendor id>`).
 */
import type { VendorTransport } from "./vendor-transport.js";
import type { WireResponse } from "./wire.js";

export function httpTransport(baseUrl: string): VendorTransport {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    async send(request, signal) {
      const response = await fetch(`${base}${request.path}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal,
      });
      const headers: WireResponse["headers"] = {};
      response.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      return { status: response.status, headers, body: await response.text() };
    },
  };
}
