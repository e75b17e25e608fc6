/**
 * The OAuth 2.0 client-credentials token request every vendor takes (RFC 6749 §4.4). Vendors differ
 * only in the token path and in where the client proves who it is: in the form body
 * (`client_secret_post`) or in an HTTP Basic header (`client_secret_basic`).
 */
import type { ClientCredentials } from "./vendor-adapter.js";
import type { WireRequest } from "./wire.js";

export type ClientAuthentication = "client_secret_post" | "client_secret_basic";

export function clientCredentialsTokenRequest(
  path: string,
  credentials: ClientCredentials,
  authentication: ClientAuthentication,
): WireRequest {
  const form = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (authentication === "client_secret_post") {
    return {
      method: "POST",
      path,
      headers: form,
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }).toString(),
    };
  }
  // RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined, so a colon in either survives.
  const basic = Buffer.from(
    `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`,
  ).toString("base64");
  return {
    method: "POST",
    path,
    headers: { authorization: `Basic ${basic}`, ...form },
    body: new URLSearchParams({ grant_type: "client_credentials" }).toString(),
  };
}
