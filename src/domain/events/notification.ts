import type { NotificationChannelName, NotificationTemplate } from "../notification.js";

/**
 * `notification.dispatched`: a channel's provider took a passenger notification (spec 6.2: the
 * operator WebSocket's `notification:dispatched`). Beyond the spec's `{caseUrn, channel, recipient}`
 * it names the group, sub-case, template and notification, so a passenger's stream can pick its own.
 */
export interface NotificationDispatchedData {
  caseUrn: string;
  channel: NotificationChannelName;
  recipient: string;
  groupId: string;
  subCaseUrn: string;
  template: NotificationTemplate;
  notificationUrn: string;
}

export interface NotificationEventDataByType {
  "notification.dispatched": NotificationDispatchedData;
}
