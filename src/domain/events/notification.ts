/** `notification.dispatched`: a voucher went out on a channel (spec 6.2). */
export interface NotificationDispatchedData {
  caseUrn: string;
  channel: string;
  recipient: string;
}

export interface NotificationEventDataByType {
  "notification.dispatched": NotificationDispatchedData;
}
