import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Doc, DocumentStore } from "../runtime/document-store.js";
import type { Clock } from "../runtime/clock.js";
import type { OperatorPasskey, OperatorPasskeys } from "../app/operator-factors/operator-passkeys.js";

/** Who the passkeys are for: the operator host, named by the configured public base URL. */
export interface RelyingParty {
  /** The host name (WebAuthn RP ID). */
  id: string;
  /** The origin the browser reports (scheme, host and port). */
  origin: string;
  name: string;
}

export function relyingPartyOf(publicBaseUrl: string): RelyingParty {
  const url = new URL(publicBaseUrl);
  return { id: url.hostname, origin: url.origin, name: "Disruption operations" };
}

/** The operator a ceremony is for. */
export interface PasskeyHolder {
  userId: string;
  tenant: string;
  username: string;
}

/** A ceremony that did not verify; the message says why, for the person at the browser. */
export class PasskeyCeremonyError extends Error {}

interface PendingChallenge extends Doc {
  challenge: string;
  expiresAt: number;
}

const CHALLENGES_COLLECTION = "webauthn_challenges";
/** How long a browser has to answer a challenge (also the WebAuthn timeout it is given). */
const CEREMONY_MS = 5 * 60 * 1000;

/**
 * The two WebAuthn ceremonies (spec 5.1 passkeys) with @simplewebauthn/server: registration for a
 * signed-in operator, authentication as the second factor of a sign-in. Each challenge is kept
 * under a key of the caller's choosing (the user for enrolment, the sign-in interaction for login),
 * answered at most once and only within CEREMONY_MS.
 */
export class PasskeyCeremonies {
  constructor(
    readonly relyingParty: RelyingParty,
    readonly passkeys: OperatorPasskeys,
    private readonly documents: DocumentStore,
    private readonly clock: Clock,
  ) {}

  private get challenges() {
    return this.documents.collection<PendingChallenge>(CHALLENGES_COLLECTION);
  }

  async registrationOptions(holder: PasskeyHolder): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.passkeys.list(holder.tenant, holder.userId);
    const options = await generateRegistrationOptions({
      rpName: this.relyingParty.name,
      rpID: this.relyingParty.id,
      userName: holder.username,
      userID: new TextEncoder().encode(holder.userId),
      timeout: CEREMONY_MS,
      attestationType: "none",
      excludeCredentials: existing.map((p) => ({ id: p._id, transports: p.transports })),
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    });
    await this.keepChallenge(`register:${holder.userId}`, options.challenge);
    return options;
  }

  async register(
    holder: PasskeyHolder,
    response: RegistrationResponseJSON,
    name: string,
  ): Promise<OperatorPasskey> {
    const expectedChallenge = await this.takeChallenge(`register:${holder.userId}`);
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: this.relyingParty.origin,
      expectedRPID: this.relyingParty.id,
      requireUserVerification: false,
    }).catch((error: Error) => {
      throw new PasskeyCeremonyError(`the passkey could not be verified: ${error.message}`);
    });
    if (!verification.verified) throw new PasskeyCeremonyError("the passkey could not be verified");
    const { credential } = verification.registrationInfo;
    const passkey: OperatorPasskey = {
      _id: credential.id,
      tenant: holder.tenant,
      userId: holder.userId,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports ?? response.response.transports ?? [],
      name,
      createdAt: new Date(this.clock.now()).toISOString(),
    };
    if (!(await this.passkeys.add(passkey)))
      throw new PasskeyCeremonyError("this passkey is already enrolled");
    return passkey;
  }

  /** Options for a sign-in by `holder`, whose passkeys are the only ones allowed; kept under `key`. */
  async authenticationOptions(
    key: string,
    holder: PasskeyHolder,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const passkeys = await this.passkeys.list(holder.tenant, holder.userId);
    const options = await generateAuthenticationOptions({
      rpID: this.relyingParty.id,
      timeout: CEREMONY_MS,
      allowCredentials: passkeys.map((p) => ({ id: p._id, transports: p.transports })),
      userVerification: "preferred",
    });
    await this.keepChallenge(`authenticate:${key}`, options.challenge);
    return options;
  }

  /** Verifies the browser's answer to the challenge kept under `key`; throws PasskeyCeremonyError when it fails. */
  async authenticate(
    key: string,
    holder: PasskeyHolder,
    response: AuthenticationResponseJSON,
  ): Promise<void> {
    const expectedChallenge = await this.takeChallenge(`authenticate:${key}`);
    const passkey = await this.passkeys.find(holder.tenant, holder.userId, String(response?.id ?? ""));
    if (!passkey) throw new PasskeyCeremonyError("this passkey is not enrolled for this user");
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: this.relyingParty.origin,
      expectedRPID: this.relyingParty.id,
      credential: {
        id: passkey._id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    }).catch((error: Error) => {
      throw new PasskeyCeremonyError(`the passkey could not be verified: ${error.message}`);
    });
    if (!verification.verified) throw new PasskeyCeremonyError("the passkey could not be verified");
    await this.passkeys.markUsed(passkey, verification.authenticationInfo.newCounter, this.clock.now());
  }

  private async keepChallenge(key: string, challenge: string): Promise<void> {
    await this.challenges.put({ _id: key, challenge, expiresAt: this.clock.now() + CEREMONY_MS });
  }

  private async takeChallenge(key: string): Promise<string> {
    const pending = await this.challenges.get(key);
    // Whoever deletes it answers it: a challenge is never answered twice.
    const taken = pending !== undefined && (await this.challenges.deleteOne({ _id: key }));
    if (!pending || !taken || pending.expiresAt < this.clock.now())
      throw new PasskeyCeremonyError("no passkey ceremony is in progress (or it expired): start again");
    return pending.challenge;
  }
}
