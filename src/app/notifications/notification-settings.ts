/** What the notifier is told by the composition root. */
export interface NotificationSettings {
  /**
   * {passenger_base_url}: where a notification without a magic link sends the passenger (to log in
   * with PNR and last name).
   */
  passengerSiteUrl: string;
}
