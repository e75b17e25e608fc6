/** What the notifier is told by the composition root. */
export interface NotificationSettings {
  /**
   * The tenant's {passenger_base_url} (its own host, spec 1): where a notification without a magic
   * link sends the passenger (to log in with PNR and last name).
   */
  passengerSiteOf(tenant: string): string;
}
