import type { Money } from "../money.js";

/** What booking books for one group: the hotel a wave chose for it and the fallbacks (spec 2.6). */
export interface WaveAllocation {
  groupId: string;
  hotelUrn: string;
  vendor: string;
  providerOfferId: string;
  /** Other offers for the same hotel, cheapest first: what booking tries when the first is refused. */
  alternatives: { vendor: string; providerOfferId: string; nightlyRate: Money }[];
  rooms: number;
  nights: number;
  checkIn: string;
  checkOut: string;
  /** In the wave's (the policy's) currency: what scoring compared. */
  nightlyRate: Money;
  cost: Money;
  /** The same, as the vendor prices it in its own currency: what the reservation will show. */
  vendorNightlyRate: Money;
  vendorCost: Money;
  savingsVsMarket: Money | null;
  isDirectContract: boolean;
  /** Set when a supervisor chose the hotel (POST /allocation/wave/{urn}/override). */
  override?: { by: string; reason: string; at: string; gatesOverridden: string[] };
}
