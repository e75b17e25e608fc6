import { inject, injectable } from "tsyringe";
import type { NotificationChannelName, NotificationRecord } from "../../domain/notification.js";
import type { DocumentCollection, DocumentStore, FindOptions, Page } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";

export const NOTIFICATION_COLLECTION = "notifications";

/**
 * The send log (spec 4.1 `GET /v1/notifications/case/{case_urn}`, 4.4 `/v1/me/notifications`): one
 * document per notification in the `notifications` collection, newest first in every read.
 * Changes to one notification are applied one at a time in this process (`update`), since the
 * sender and the provider's callbacks may change it at once.
 */
@injectable()
export class NotificationLog {
  private readonly collection: DocumentCollection<NotificationRecord>;
  /** `<channel>:<provider message id>` → notification URN: what a delivery callback is looked up by. */
  private readonly messages: DocumentCollection<{ _id: string; notificationUrn: string }>;
  private readonly updating = new Map<string, Promise<unknown>>();
  private created = 0;

  constructor(@inject(TOKENS.documents) documents: DocumentStore) {
    this.collection = documents.collection<NotificationRecord>(NOTIFICATION_COLLECTION);
    this.messages = documents.collection("notification-messages");
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.ensureIndex({ keys: { tenant: 1, caseUrn: 1, sequence: -1 } });
    await this.collection.ensureIndex({ keys: { tenant: 1, caseUrn: 1, groupId: 1, sequence: -1 } });
  }

  get(notificationUrn: string): Promise<NotificationRecord | undefined> {
    return this.collection.get(notificationUrn);
  }

  /** True when it inserted; false when a notification with the same URN exists already. */
  create(record: Omit<NotificationRecord, "sequence">): Promise<boolean> {
    this.created = (this.created + 1) % 1e9;
    const sequence = `${record.createdAt}-${String(this.created).padStart(9, "0")}`;
    return this.collection.insertIfAbsent({ ...record, sequence });
  }

  /** Runs `change` on the stored record and stores what it returns, one change at a time per record. */
  update(
    notificationUrn: string,
    change: (record: NotificationRecord) => NotificationRecord | Promise<NotificationRecord>,
  ): Promise<NotificationRecord> {
    const previous = this.updating.get(notificationUrn) ?? Promise.resolve();
    const next = previous.then(async () => {
      const record = await this.collection.get(notificationUrn);
      if (!record) throw new Error(`notification ${notificationUrn} is not in the log`);
      const changed = await change(record);
      await this.collection.put(changed);
      return changed;
    });
    const settled = next.catch(() => undefined);
    this.updating.set(notificationUrn, settled);
    void settled.then(() => {
      if (this.updating.get(notificationUrn) === settled) this.updating.delete(notificationUrn);
    });
    return next;
  }

  /** Remembers which notification a provider's message is, for its delivery callbacks. */
  async linkProviderMessage(
    channel: NotificationChannelName,
    providerMessageId: string,
    notificationUrn: string,
  ) {
    await this.messages.put({ _id: `${channel}:${providerMessageId}`, notificationUrn });
  }

  /** The notification a provider's message belongs to, whichever tenant's it is. */
  async byProviderMessage(
    channel: NotificationChannelName,
    providerMessageId: string,
  ): Promise<NotificationRecord | undefined> {
    const link = await this.messages.get(`${channel}:${providerMessageId}`);
    return link ? this.collection.get(link.notificationUrn) : undefined;
  }

  /**
   * Whether a notification of the group already carried a magic link out (not counting `except`).
   * The group's records are read by the index on (tenant, caseUrn, groupId), which answers that
   * part alone, and the rest is tested here: a filter naming `except` would be a new one each call,
   * which the memory store compiles afresh every time (a group holds a few records, one per send).
   */
  async groupHadMagicLink(
    group: { tenant: string; caseUrn: string; groupId: string },
    except: string,
  ): Promise<boolean> {
    const records = await this.collection.findAll({
      tenant: group.tenant,
      caseUrn: group.caseUrn,
      groupId: group.groupId,
    });
    return records.some(
      (record) =>
        record._id !== except &&
        record.carriesMagicLink &&
        (record.status === "SENT" || record.status === "DELIVERED"),
    );
  }

  ofCase(tenant: string, caseUrn: string, page: FindOptions): Promise<Page<NotificationRecord>> {
    return this.collection.find({ tenant, caseUrn }, { ...page, sort: { sequence: -1 } });
  }

  ofGroup(
    group: { tenant: string; caseUrn: string; groupId: string },
    page: FindOptions,
  ): Promise<Page<NotificationRecord>> {
    const { tenant, caseUrn, groupId } = group;
    return this.collection.find({ tenant, caseUrn, groupId }, { ...page, sort: { sequence: -1 } });
  }
}
