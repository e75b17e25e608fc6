/**
 * The token endpoint's side of `src/vendors/token-request.ts`: where a simulated vendor looks for
 * the client's id and secret. A simulator that finds them elsewhere than its vendor documents
 * answers `invalid_client`, so a client built for another vendor's shape fails as it would live.
 */
import type { ClientAuthentication } from "../../src/vendors/token-request.js";
import type { ClientCredentials } from "../../src/vendors/vendor-adapter.js";
import type { WireRequest } from "../../src/vendors/wire.js";

export function presentedCredentials(
  request: WireRequest,
  authentication: ClientAuthentication,
): ClientCredentials | undefined {
  return authentication === "client_secret_post" ? postedCredentials(request) : basicCredentials(request);
}

function postedCredentials(request: WireRequest): ClientCredentials | undefined {
  const form = new URLSearchParams(request.body ?? "");
  const clientId = form.get("client_id");
  const clientSecret = form.get("client_secret");
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

function basicCredentials(request: WireRequest): ClientCredentials | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith("Basic ")) return undefined;
  const decoded = Buffer.from(header.slice("Basic ".length), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return {
    clientId: decodeURIComponent(decoded.slice(0, colon)),
    clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}
