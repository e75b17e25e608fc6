import type { Doc, DocumentStore } from "../../runtime/document-store.js";

/**
 * An operator's enrolled passkey (WebAuthn credential, spec 5.1). Kept per tenant: every lookup
 * names the airline as well as the user, so one airline's records never answer for another.
 */
export interface OperatorPasskey extends Doc {
  /** The credential ID (base64url), unique across authenticators. */
  _id: string;
  tenant: string;
  userId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter at the last use (0 for authenticators that keep none). */
  counter: number;
  transports: string[];
  /** What the operator called it ("Laptop", "YubiKey"). */
  name: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  lastUsedAt?: string;
}

export const OPERATOR_PASSKEYS_COLLECTION = "operator_passkeys";

/** The passkeys of operators, in the document store. */
export class OperatorPasskeys {
  constructor(private readonly store: DocumentStore) {}

  private get passkeys() {
    return this.store.collection<OperatorPasskey>(OPERATOR_PASSKEYS_COLLECTION);
  }

  /** The user's passkeys, oldest first. */
  list(tenant: string, userId: string): Promise<OperatorPasskey[]> {
    return this.passkeys.findAll({ tenant, userId }, { sort: { createdAt: 1 } });
  }

  find(tenant: string, userId: string, credentialId: string): Promise<OperatorPasskey | undefined> {
    return this.passkeys.findOne({ _id: credentialId, tenant, userId });
  }

  /** Keeps a new passkey; false when that credential is already enrolled (by anyone). */
  add(passkey: OperatorPasskey): Promise<boolean> {
    return this.passkeys.insertIfAbsent(passkey);
  }

  remove(tenant: string, userId: string, credentialId: string): Promise<boolean> {
    return this.passkeys.deleteOne({ _id: credentialId, tenant, userId });
  }

  async markUsed(passkey: OperatorPasskey, counter: number, at: number): Promise<void> {
    await this.passkeys.updateOne(
      { _id: passkey._id, tenant: passkey.tenant },
      { $set: { counter, lastUsedAt: new Date(at).toISOString() } },
    );
  }
}
