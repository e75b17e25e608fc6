/**
 * The passenger surface's own signing key (spec 5: operator and passenger tokens differ in signing
 * key). It is Ed25519 and nothing else: an RSA key of the operator identity provider is refused
 * here, so the two can never be the same key, and a verifier that accepts only EdDSA never accepts
 * an operator token.
 */
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
} from "jose";

export const PASSENGER_SIGNING_ALGORITHM = "EdDSA";

export interface PassengerSigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** For verifiers elsewhere (the passenger API's authenticator, other instances). */
  publicJwks: JSONWebKeySet;
}

/**
 * A fresh key (tokens then end with the process: several instances, or sessions that outlive a
 * restart, need the key from configuration), or the given private Ed25519 JWK.
 */
export async function loadPassengerSigningKey(existing?: JWK): Promise<PassengerSigningKey> {
  const jwk =
    existing ?? (await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey));
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.d !== "string" || typeof jwk.x !== "string") {
    throw new Error("The passenger signing key must be a private Ed25519 JWK (kty OKP, crv Ed25519, with d)");
  }
  const { d: _d, ...publicPart } = jwk;
  const kid = jwk.kid ?? (await calculateJwkThumbprint(publicPart));
  const publicJwk: JWK = {
    kty: "OKP",
    crv: "Ed25519",
    x: jwk.x,
    kid,
    alg: PASSENGER_SIGNING_ALGORITHM,
    use: "sig",
  };
  return {
    kid,
    privateKey: (await importJWK({ ...publicJwk, d: jwk.d }, PASSENGER_SIGNING_ALGORITHM)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, PASSENGER_SIGNING_ALGORITHM)) as CryptoKey,
    publicJwks: { keys: [publicJwk] },
  };
}
