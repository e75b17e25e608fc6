import { SUB_CASE_EVENT, type SubCaseEventData } from "../../src/domain/events/sub-case.js";
import { SUB_CASE_MOVES } from "../../src/domain/sub-case.js";
import type { EventOf, EventType } from "../../src/domain/events/catalogue.js";
import type { ChannelEventName, EventMessage } from "./protocol.js";

/**
 * Which domain events operators see on the channel, and as what (spec 6.2):
 *
 *   case.*                                  case:updated {caseUrn, status, cause, ...event data but the manifest}
 *   subcase.* (state or lock change)        subcase:state-changed {subCaseUrn, caseUrn, groupId, status, lockedBy, ...}
 *   subcase.<transition> (processing...)    also case:updated, with the case's status ("fans up")
 *   graph.step.started|completed|progress   graph:step:started|completed|progress, data as emitted
 *   notification.dispatched                 notification:dispatched, data as emitted
 *
 * A lock renewal changes nobody's view and is not sent. Anything else is not for the channel.
 * The passenger groups an opening or amendment carries stay out of case:updated: a full flight's
 * manifest weighs tens of kilobytes, sent to every watcher and kept for the replay window, and the
 * screen pages through it from the manifest route (groupCount and passengerCount still come).
 */
export async function channelEventsOf(
  event: EventOf,
  caseStatus: (caseUrn: string) => Promise<string | undefined>,
): Promise<EventMessage[]> {
  const data: Record<string, unknown> = { ...(event.data as object) };
  const caseUrn = caseUrnOf(event);
  if (!caseUrn) return [];
  const message = (name: ChannelEventName, payload: Record<string, unknown>): EventMessage => ({
    type: "event",
    event: name,
    id: event.id,
    at: event.occurredAt,
    caseUrn,
    data: payload,
  });

  if (event.type.startsWith("case.")) {
    const { passengerGroups: _manifest, ...change } = data;
    const status = typeof change.status === "string" ? change.status : await caseStatus(caseUrn);
    return [message("case:updated", { ...change, caseUrn, status, cause: event.type })];
  }
  if (event.type.startsWith("subcase.")) {
    const subCase = data as Partial<SubCaseEventData>;
    if (event.type === SUB_CASE_EVENT.locked && subCase.renewed) return [];
    const stateChanged = message("subcase:state-changed", {
      subCaseUrn: subCase.subCaseUrn,
      caseUrn,
      groupId: subCase.groupId,
      status: subCase.status,
      ...("lockedBy" in subCase ? { lockedBy: subCase.lockedBy, lockExpiresAt: subCase.lockExpiresAt } : {}),
      ...(subCase.retiredAt ? { retiredAt: subCase.retiredAt } : {}),
      cause: event.type,
    });
    if (!TRANSITIONS_OF_THE_CASE.has(event.type)) return [stateChanged];
    const fannedUp = message("case:updated", {
      caseUrn,
      status: await caseStatus(caseUrn),
      subCaseUrn: subCase.subCaseUrn,
      subCaseStatus: subCase.status,
      cause: event.type,
    });
    return [stateChanged, fannedUp];
  }
  const passedThrough = PASSED_THROUGH[event.type];
  return passedThrough ? [message(passedThrough, { ...data, caseUrn })] : [];
}

/** The case an event is about: its own `caseUrn`, else its data's. */
export function caseUrnOf(event: EventOf): string | undefined {
  const data = event.data as { caseUrn?: unknown } | null | undefined;
  return event.caseUrn ?? (typeof data?.caseUrn === "string" ? data.caseUrn : undefined);
}

/**
 * Whether `event` becomes a `case:updated`, which is logged for replay whether or not anyone
 * watches: everything else only matters to a room with someone in it.
 */
export function updatesTheCase(event: EventOf): boolean {
  return event.type.startsWith("case.") || TRANSITIONS_OF_THE_CASE.has(event.type);
}

/** Sub-case events that move the work on, as opposed to its bookkeeping (creation, locks). */
const TRANSITIONS_OF_THE_CASE: ReadonlySet<EventType> = new Set<EventType>(SUB_CASE_MOVES);

const PASSED_THROUGH: Readonly<Partial<Record<EventType, ChannelEventName>>> = {
  "graph.step.started": "graph:step:started",
  "graph.step.completed": "graph:step:completed",
  "graph.step.progress": "graph:step:progress",
  "notification.dispatched": "notification:dispatched",
};
