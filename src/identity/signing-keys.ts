import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
} from "jose";

/** The identity provider's RS256 signing key, in the forms its users need. */
export interface SigningKey {
  kid: string;
  /** Private JWK (with kid, alg, use) for oidc-provider's keystore. */
  privateJwk: JWK;
  /** For signing service tokens with the same key. */
  privateKey: CryptoKey;
  /** The public half, as served at the JWKS endpoint. */
  publicJwks: JSONWebKeySet;
}

/**
 * A fresh RS256 key (the embedded default generates one per process: tokens do not outlive a
 * restart), or the given private JWK when the deployment keeps its key elsewhere.
 */
export async function loadSigningKey(existing?: JWK): Promise<SigningKey> {
  const jwk =
    existing ?? (await exportJWK((await generateKeyPair("RS256", { extractable: true })).privateKey));
  const kid = jwk.kid ?? (await calculateJwkThumbprint(jwk));
  const privateJwk: JWK = { ...jwk, kid, alg: "RS256", use: "sig" };
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = privateJwk;
  const privateKey = (await importJWK(privateJwk, "RS256")) as CryptoKey;
  return { kid, privateJwk, privateKey, publicJwks: { keys: [publicJwk] } };
}
