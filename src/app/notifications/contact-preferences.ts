import { inject, injectable } from "tsyringe";
import type { NotificationChannelName } from "../../domain/notification.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";

export interface ContactPreferenceDoc {
  /** `<tenant>|<channel>|<address>`. */
  _id: string;
  tenant: string;
  channel: NotificationChannelName;
  address: string;
  optedOut: boolean;
  /** What said so: the provider's opted-out callback, or the passenger's STOP reply. */
  source: "opted-out" | "stop-reply";
  /** The notification whose callback brought the opt-out. */
  notificationUrn: string;
  at: string;
}

/**
 * The passengers' contact preferences (spec 6.3: delivery callbacks update them): an address that
 * opted out of a channel, per tenant, is passed over on that channel by every later send.
 */
@injectable()
export class ContactPreferences {
  private readonly collection: DocumentCollection<ContactPreferenceDoc>;

  constructor(
    @inject(TOKENS.documents) documents: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {
    this.collection = documents.collection<ContactPreferenceDoc>("contact-preferences");
  }

  async optOut(
    tenant: string,
    channel: NotificationChannelName,
    address: string,
    cause: { source: ContactPreferenceDoc["source"]; notificationUrn: string },
  ): Promise<void> {
    await this.collection.put({
      _id: keyOf(tenant, channel, address),
      tenant,
      channel,
      address,
      optedOut: true,
      ...cause,
      at: new Date(this.clock.now()).toISOString(),
    });
  }

  async hasOptedOut(tenant: string, channel: NotificationChannelName, address: string): Promise<boolean> {
    return (await this.collection.get(keyOf(tenant, channel, address)))?.optedOut === true;
  }
}

function keyOf(tenant: string, channel: NotificationChannelName, address: string): string {
  return `${tenant}|${channel}|${address.replace(/\s+/g, "")}`;
}
