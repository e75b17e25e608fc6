export interface BookingSettings {
  /** How long a claim protects a group being booked before another worker may take it over. */
  claimLeaseMs: number;
  /** Wait before a group left behind an open circuit is tried again (the breaker's cool-down). */
  retryInMs: number;
  /** Rounds behind open circuits before the group goes to an operator. */
  maxRetries: number;
  /**
   * Groups of a wave booked at the same time per vendor (the vendor of each group's allocated
   * offer). Each vendor's booking bucket paces its own calls, so a wave spread over several vendors
   * is only as slow as its busiest vendor, provided every vendor always has a call waiting: a few
   * in flight per vendor cover a vendor that answers slower than its bucket refills. The bound
   * keeps each claim close to its vendor call (the claim lease) instead of claiming a large wave's
   * groups long before their turn.
   */
  concurrentGroupsPerVendor: number;
}

export const DEFAULT_BOOKING_SETTINGS: BookingSettings = {
  claimLeaseMs: 10 * 60_000,
  retryInMs: 30_000,
  maxRetries: 10,
  concurrentGroupsPerVendor: 8,
};
