import type { Doc, DocumentStore } from "../../runtime/document-store.js";
import type { SignInPlace } from "../../domain/second-factors.js";

/**
 * What the step-up risk signals compare a sign-in with (spec 5.1): the devices a user signed in
 * from, and where and when the last located sign-in was.
 */
export interface SignInHistory extends Doc {
  /** The user id. */
  _id: string;
  tenant: string;
  /** Device cookie values, most recent last; the oldest drop out past MAX_DEVICES. */
  devices: string[];
  lastPlace?: SignInPlace;
}

export const SIGN_IN_HISTORY_COLLECTION = "operator_sign_in_history";
const MAX_DEVICES = 20;

export class SignInHistories {
  constructor(private readonly store: DocumentStore) {}

  private get histories() {
    return this.store.collection<SignInHistory>(SIGN_IN_HISTORY_COLLECTION);
  }

  find(tenant: string, userId: string): Promise<SignInHistory | undefined> {
    return this.histories.findOne({ _id: userId, tenant });
  }

  /** Remembers a completed sign-in: its device (when the client keeps one) and its place (when known). */
  async record(
    tenant: string,
    userId: string,
    sighting: { device?: string; place?: SignInPlace },
  ): Promise<void> {
    const previous = await this.find(tenant, userId);
    const devices = (previous?.devices ?? []).filter((d) => d !== sighting.device);
    if (sighting.device) devices.push(sighting.device);
    const lastPlace = sighting.place ?? previous?.lastPlace;
    await this.histories.put({
      _id: userId,
      tenant,
      devices: devices.slice(-MAX_DEVICES),
      ...(lastPlace ? { lastPlace } : {}),
    });
  }
}
