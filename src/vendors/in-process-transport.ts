/**
 * The embedded default: wire requests go straight to a simulator object, no socket, but still
 * through the same client (tokens, buckets, retries, breaker) so behaviour matches the HTTP path.
 * A simulator cannot be interrupted; on abort the client has already stopped waiting for it.
 */
import type { VendorTransport } from "./vendor-transport.js";
import type { WireEndpoint } from "./wire.js";

export function inProcessTransport(endpoint: WireEndpoint): VendorTransport {
  return { send: (request) => endpoint.handle(request) };
}
