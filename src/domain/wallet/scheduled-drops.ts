/**
 * When a wallet card's funds are loaded (spec 8.2, "wallet scheduled drops"): 25 percent at issue,
 * 35 percent at noon and 40 percent at 18:00 in the airport's local time, when the tier uses
 * scheduled drops; otherwise everything at issue. Pure: the caller passes the airport's UTC offset
 * as a function of the instant (daylight saving changes it).
 */

export type DropId = "issue" | "noon" | "evening";

export interface PlannedDrop {
  id: DropId;
  /** ISO 8601 UTC: when the drop is due. */
  dueAt: string;
  /** Minor units. */
  amount: number;
}

/** Share of the card's amount per drop, in percent (spec 8.2). */
export const DROP_SHARES: Readonly<Record<DropId, number>> = { issue: 25, noon: 35, evening: 40 };

/** Local hours of the drops after the first. */
const DROP_LOCAL_HOURS: Readonly<Record<Exclude<DropId, "issue">, number>> = { noon: 12, evening: 18 };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The drops of a card of `amount` minor units issued at `issuedAt`. The noon drop is the first
 * local 12:00 after issue and the evening drop the first local 18:00 after that, so the drops keep
 * their order whatever the time of issue. Shares are rounded down; the last drop takes what is left,
 * so the drops always add up to the amount.
 */
export function plannedDrops(
  amount: number,
  issuedAt: number,
  scheduled: boolean,
  utcOffsetMinutesAt: (at: number) => number,
): PlannedDrop[] {
  const at = new Date(issuedAt).toISOString();
  if (!scheduled) return [{ id: "issue", dueAt: at, amount }];
  const first = Math.floor((amount * DROP_SHARES.issue) / 100);
  const second = Math.floor((amount * DROP_SHARES.noon) / 100);
  const noon = nextLocalHour(issuedAt, DROP_LOCAL_HOURS.noon, utcOffsetMinutesAt);
  const evening = nextLocalHour(noon, DROP_LOCAL_HOURS.evening, utcOffsetMinutesAt);
  return [
    { id: "issue", dueAt: at, amount: first },
    { id: "noon", dueAt: new Date(noon).toISOString(), amount: second },
    { id: "evening", dueAt: new Date(evening).toISOString(), amount: amount - first - second },
  ];
}

/** The first instant strictly after `after` at which the local clock reads `hour`:00. */
export function nextLocalHour(
  after: number,
  hour: number,
  utcOffsetMinutesAt: (at: number) => number,
): number {
  const offsetMs = utcOffsetMinutesAt(after) * 60_000;
  const local = after + offsetMs;
  const localMidnight = local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
  for (const day of [0, 1, 2]) {
    const candidateLocal = localMidnight + day * DAY_MS + hour * HOUR_MS;
    // The offset at the candidate itself: a daylight-saving change between now and then moves it.
    const candidate = candidateLocal - utcOffsetMinutesAt(candidateLocal - offsetMs) * 60_000;
    if (candidate > after) return candidate;
  }
  return localMidnight + 2 * DAY_MS + hour * HOUR_MS - offsetMs;
}
