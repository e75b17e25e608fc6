/**
 * The BookingActor on its own, turn by turn as the booking flow drives it, on the embedded runtime
 * and on the Dapr adapters through the stand-in sidecar (its state keys go through the Dapr actor
 * state API there): claims, deferred groups, turns that hand back only the reservations they
 * changed, and what a turn writes staying the same size however many groups the case has booked.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterEach, describe, expect, it } from "vitest";
import { BookingActor, type CaseRef, type ClaimArgs } from "../../actors/BookingActor.js";
import { type BookingPlan, waveBookingKey } from "../../src/domain/booking/group-booking.js";
import type { ConfirmedDraft } from "../../src/domain/booking/reservation-lifecycle.js";
import { BOOKING_EVENTS } from "../../src/domain/events/booking.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import type { Incarnation } from "../../src/domain/incarnation.js";
import { money } from "../../src/domain/money.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";
import { ManualClock, settle } from "../../src/runtime/clock.js";
import { DaprActorRuntime } from "../../src/runtime/dapr/actor-runtime.js";
import { DaprEventBus } from "../../src/runtime/dapr/event-bus.js";
import { sidecarRouter } from "../../src/runtime/dapr/sidecar-routes.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { Subscription } from "../../src/runtime/event-bus.js";
import type { StateOperation } from "../../src/runtime/state-store.js";
import { startStandinSidecar } from "../support/standin-sidecar/index.js";

const TENANT = "urn:airline:ZX";
const CASE: CaseRef = { tenant: TENANT, caseUrn: "urn:case:zx-booking-actor", airport: "JFK" };
const ACTOR_ID = "zx-booking-actor";
const WAVE = "urn:wave:0f3c9a52-6b1e-4d7f-9a0e-5c2b8d1e4f60";
const CORRELATION = "urn:trace:0123456789abcdef0123456789abcdef";
const LEASE_MS = 60_000;
const HOLDER: Incarnation = { node: "node-a", incarnation: 1 };

/** A state store that keeps every transaction it commits, to see what each turn wrote. */
class RecordingStateStore extends MemoryStateStore {
  readonly transactions: StateOperation[][] = [];

  override async transact(operations: StateOperation[]): Promise<void> {
    this.transactions.push(operations);
    await super.transact(operations);
  }

  /** The BookingActor state a transaction wrote: its key and JSON size per upsert. */
  bookingStateWrites(operations: StateOperation[]): { key: string; bytes: number }[] {
    return operations.flatMap((operation) => {
      // `<prefix>||<type>||<id>||<key>`; the outbox, reminders and the Dapr outbox key are not state.
      const [prefix, type, , key] = operation.key.split("||");
      if (type !== "BookingActor" || prefix === "outbox" || prefix === "reminder" || key === "__outbox") {
        return [];
      }
      return operation.operation === "upsert"
        ? [{ key: key!, bytes: JSON.stringify(operation.value).length }]
        : [];
    });
  }
}

interface Host {
  actors: ActorRuntime;
  clock: ManualClock;
  store: RecordingStateStore;
  events: DomainEvent[];
  /** Lets deliveries and reminder turns in flight finish. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

function recorder(events: DomainEvent[]): Subscription {
  return {
    name: "booking-actor-test",
    topic: topicFor({ tenant: TENANT }),
    handler: async (event) => {
      events.push(event);
      return "SUCCESS";
    },
  };
}

async function embeddedHost(): Promise<Host> {
  const clock = new ManualClock("2026-11-21T12:00:00Z");
  const store = new RecordingStateStore();
  const bus = new EmbeddedEventBus({ clock });
  const actors = new EmbeddedActorRuntime({ store, bus, clock });
  actors.register(BookingActor);
  const events: DomainEvent[] = [];
  bus.subscribe(recorder(events));
  await actors.start();
  return {
    actors,
    clock,
    store,
    events,
    settle: async () => {
      await actors.idle();
      await settle();
    },
    close: async () => {
      await actors.close();
      await bus.close();
    },
  };
}

async function daprHost(): Promise<Host> {
  const clock = new ManualClock("2026-11-21T12:00:00Z");
  const store = new RecordingStateStore();
  const sidecar = await startStandinSidecar({ clock, store, random: () => 1 });
  const address = { httpPort: sidecar.httpPort };
  const bus = new DaprEventBus({ sidecar: address, pubsubName: "pubsub", appId: "app" });
  const actors = new DaprActorRuntime({ sidecar: address, bus, clock, onError: () => {} });
  actors.register(BookingActor);
  const events: DomainEvent[] = [];
  bus.subscribe(recorder(events));
  const koa = new Koa();
  koa.use(sidecarRouter({ actors, bus }).routes());
  const server: Server = koa.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  await sidecar.attachApp((server.address() as AddressInfo).port);
  return {
    actors,
    clock,
    store,
    events,
    settle: () => sidecar.idle(),
    close: async () => {
      await actors.close();
      await bus.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sidecar.close();
    },
  };
}

const plan: BookingPlan = {
  candidates: [{ hotelUrn: "urn:hotel:h1", vendor: "vendor-a", providerOfferId: "offer-1" }],
  checkIn: "2026-11-21",
  checkOut: "2026-11-22",
  rooms: 1,
};

/** Group G2's stay booked by phone, as an operator records it (recordManual). */
function manualFor(waveUrn: string | null) {
  return {
    case: CASE,
    groupId: "G2",
    waveUrn,
    demandUrn: null,
    hotel: { hotelUrn: "urn:hotel:manual", name: "Inn", address: "2 Main St", providerHotelId: null },
    confirmationNumber: "PHONE-1",
    checkIn: plan.checkIn,
    checkOut: plan.checkOut,
    rooms: 1,
    guests: [],
    cost: money(20_000, "USD"),
    reason: "booked by phone",
    bookedBy: "urn:user:operator",
    requestId: "request-1",
    verificationCode: "WXYZ6789",
    correlationUrn: CORRELATION,
  };
}

function claimOf(groupId: string, rest: Partial<ClaimArgs> = {}): ClaimArgs {
  return {
    case: CASE,
    key: waveBookingKey(WAVE, groupId),
    waveUrn: WAVE,
    demandUrn: null,
    groupId,
    source: "wave",
    plan,
    requestedBy: "urn:user:system",
    leaseMs: LEASE_MS,
    holder: HOLDER,
    correlationUrn: CORRELATION,
    ...rest,
  };
}

/** What the vendor confirmed for the group: the same shape and size for every group. */
function draftFor(groupId: string): ConfirmedDraft {
  return {
    vendor: "vendor-a",
    vendorReservationId: `VA-${groupId}`,
    confirmationNumber: `CN-${groupId}`,
    providerOfferId: "offer-1",
    hotel: { hotelUrn: "urn:hotel:h1", name: "Harbour Hotel", address: "1 Quay St", providerHotelId: "H1" },
    checkIn: plan.checkIn,
    checkOut: plan.checkOut,
    rooms: 1,
    guests: [
      { passengerId: `${groupId}-p1`, name: "Ada Lovelace" },
      { passengerId: `${groupId}-p2`, name: "Alan Turing" },
    ],
    payment: "GUARANTEE",
    cost: money(12_000, "USD"),
    allocatedCost: null,
    refundable: true,
    cancellationDeadline: null,
    replaces: null,
    vendorUpdatedAt: null,
  };
}

const groupId = (n: number) => `G${String(n).padStart(3, "0")}`;

for (const [runtime, start] of [
  ["the embedded runtime", embeddedHost],
  ["the Dapr adapters", daprHost],
] as const) {
  describe(`BookingActor on ${runtime}`, () => {
    let host: Host | undefined;
    afterEach(async () => {
      await host?.close();
      host = undefined;
    });

    /** Any method by name, for the tests that look at answers as JSON. */
    const invoke = (method: string, arg: unknown): Promise<any> =>
      (host!.actors.invoke as (...args: unknown[]) => Promise<unknown>)(BookingActor, ACTOR_ID, method, arg);

    /** Claims and confirms the group's wave booking; the confirm's turn and what it wrote. */
    const book = async (group: string) => {
      const claim = await host!.actors.invoke(BookingActor, ACTOR_ID, "claim", claimOf(group));
      if (!claim.granted) throw new Error(`claim of ${group} refused: ${claim.reason}`);
      const written = host!.store.transactions.length;
      const turn = await host!.actors.invoke(BookingActor, ACTOR_ID, "confirm", {
        key: claim.booking.key,
        token: claim.token,
        attemptedHotels: [],
        staleOffers: [],
        correlationUrn: CORRELATION,
        draft: draftFor(group),
        verificationCode: "ABCD2345",
      });
      const writes = host!.store.transactions
        .slice(written)
        .flatMap((operations) => host!.store.bookingStateWrites(operations));
      return { turn, writes };
    };

    it("writes as much for a group's confirmation, and hands back as much, however many groups are booked", async () => {
      host = await start();
      const first = await book(groupId(1));
      for (let n = 2; n < 25; n++) await book(groupId(n));
      const last = await book(groupId(25));

      const kinds = (writes: { key: string }[]) => writes.map((w) => w.key.split(":")[0]).sort();
      expect(kinds(first.writes)).toEqual(["booking", "case", "group", "reservation"]);
      expect(kinds(last.writes)).toEqual(kinds(first.writes));
      const bytes = (writes: { bytes: number }[]) => writes.reduce((sum, w) => sum + w.bytes, 0);
      // Only the case's revision has grown a digit.
      expect(bytes(last.writes)).toBeLessThanOrEqual(bytes(first.writes) + 1);
      expect(last.turn.reservations).toEqual([last.turn.reservation]);
      expect(last.turn.revision).toBe(50);

      const ledger = await invoke("groupLedger", [groupId(1), groupId(25)]);
      expect(Object.values(ledger.reservations)).toEqual([first.turn.reservation, last.turn.reservation]);
      expect(Object.keys(ledger.bookings)).toEqual([
        waveBookingKey(WAVE, groupId(1)),
        waveBookingKey(WAVE, groupId(25)),
      ]);
    });

    it("refuses a live claim, hands an expired one over with its plan, and gives back a stale confirmation", async () => {
      host = await start();
      const first = await invoke("claim", claimOf("G1"));
      expect(first.granted).toBe(true);
      expect(await invoke("claim", claimOf("G1"))).toEqual({ granted: false, reason: "in-progress" });

      await host.clock.advance(LEASE_MS);
      const other: BookingPlan = { ...plan, rooms: 3 };
      const takeover = await invoke("claim", claimOf("G1", { plan: other }));
      expect(takeover).toMatchObject({ granted: true, booking: { plan, state: "BOOKING" } });

      const stale = await invoke("confirm", {
        key: first.booking.key,
        token: first.token,
        attemptedHotels: [],
        staleOffers: [],
        correlationUrn: CORRELATION,
        draft: draftFor("G1"),
        verificationCode: "ABCD2345",
      });
      expect(stale).toMatchObject({ accepted: false, reservations: [] });
      expect(stale.reservation).toBeUndefined();

      const booked = await invoke("confirm", {
        key: takeover.booking.key,
        token: takeover.token,
        attemptedHotels: [],
        staleOffers: [],
        correlationUrn: CORRELATION,
        draft: draftFor("G1"),
        verificationCode: "ABCD2345",
      });
      expect(booked.accepted).toBe(true);
      expect(await invoke("claim", claimOf("G1"))).toEqual({ granted: false, reason: "booked" });
      await host.settle();
      expect(host.events.filter((e) => e.type === BOOKING_EVENTS.reservationConfirmed)).toHaveLength(1);
    });

    it("hands a killed process's claim to its restart at once, in the same attempt; another node's waits for its lease", async () => {
      host = await start();
      const dead = await invoke("claim", claimOf("G1"));
      expect(dead.booking.attempt).toBe(1);
      const otherNode = { node: "node-b", incarnation: 7 };
      expect(await invoke("claim", claimOf("G1", { holder: otherNode }))).toEqual({
        granted: false,
        reason: "in-progress",
      });
      // node-a restarts (its next incarnation) a moment later: no wait for the lease.
      await host.clock.advance(1);
      const restarted = { node: HOLDER.node, incarnation: HOLDER.incarnation + 1 };
      const resumed = await invoke("claim", claimOf("G1", { holder: restarted }));
      expect(resumed).toMatchObject({ granted: true, booking: { state: "BOOKING", attempt: 1 } });
      expect(resumed.booking.claim.holder).toEqual(restarted);

      // The restarted process is alive: node-b still waits for its lease, then starts attempt 2.
      expect(await invoke("claim", claimOf("G1", { holder: otherNode }))).toEqual({
        granted: false,
        reason: "in-progress",
      });
      await host.clock.advance(LEASE_MS);
      expect(await invoke("claim", claimOf("G1", { holder: otherNode }))).toMatchObject({
        granted: true,
        booking: { attempt: 2, claim: { holder: otherNode } },
      });
    });

    it("keeps a wave off a group that holds a reservation, but lets an override replace it", async () => {
      host = await start();
      const held = (await book("G1")).turn.reservation!;
      const laterWave = "urn:wave:later";
      expect(
        await invoke("claim", claimOf("G1", { key: waveBookingKey(laterWave, "G1"), waveUrn: laterWave })),
      ).toEqual({ granted: false, reason: "group-holds-reservation" });
      const override = await invoke(
        "claim",
        claimOf("G1", { key: "override:urn:event:1", source: "override" }),
      );
      expect(override.granted).toBe(true);

      const cancelled = await invoke("markCancelled", {
        reservationId: held.id,
        by: "urn:user:operator",
        reason: "moved",
        correlationUrn: CORRELATION,
      });
      expect(cancelled.reservations).toEqual([expect.objectContaining({ id: held.id, status: "CANCELLED" })]);
      const ledger = await invoke("groupLedger", ["G1"]);
      expect(Object.keys(ledger.bookings)).toEqual([waveBookingKey(WAVE, "G1"), "override:urn:event:1"]);
    });

    it("checks the group in once: CHECKED_IN with reservation.checked-in, again a no-op, a cancelled stay 409", async () => {
      host = await start();
      const held = (await book("G1")).turn.reservation!;
      const checkIn = { groupId: "G1", by: "urn:passenger-session:s1", correlationUrn: CORRELATION };
      const first = await invoke("checkIn", checkIn);
      expect(first.changed).toBe(true);
      expect(first.reservations).toEqual([expect.objectContaining({ id: held.id, status: "CHECKED_IN" })]);
      const again = await invoke("checkIn", checkIn);
      expect(again.changed).toBe(false);
      expect(again.revision).toBe(first.revision);
      await host.settle();
      const checkedIn = host.events.filter((e) => e.type === BOOKING_EVENTS.reservationCheckedIn);
      expect(checkedIn).toHaveLength(1);
      expect(checkedIn[0]!.data).toMatchObject({
        groupId: "G1",
        status: "CHECKED_IN",
        checkedInBy: checkIn.by,
      });

      await expect(invoke("checkIn", { ...checkIn, groupId: "G-without-room" })).rejects.toMatchObject({
        kind: "not-found",
      });
      const other = (await book("G2")).turn.reservation!;
      await invoke("markCancelled", {
        reservationId: other.id,
        by: "urn:user:operator",
        reason: "moved",
        correlationUrn: CORRELATION,
      });
      await expect(invoke("checkIn", { ...checkIn, groupId: "G2" })).rejects.toMatchObject({
        kind: "not-found",
      });
    });

    it("keeps a deferred group PENDING with its round counted, arms no reminder, and grants it to the next claim", async () => {
      host = await start();
      const defer = async (group: string) => {
        const claim = await invoke("claim", claimOf(group));
        return invoke("defer", {
          key: claim.booking.key,
          token: claim.token,
          attemptedHotels: [],
          staleOffers: [],
          correlationUrn: CORRELATION,
          maxRetries: 3,
        });
      };
      expect(await defer("G1")).toMatchObject({ state: "PENDING", reservations: [] });
      await defer("G2");
      await host.settle();
      const eventsBefore = host.events.length;
      // The book-groups run that deferred the groups books them again; the actor reminds nobody.
      await host.clock.advance(30_000);
      await host.settle();
      expect(host.events).toHaveLength(eventsBefore);

      const again = await invoke("claim", claimOf("G1"));
      expect(again).toMatchObject({ granted: true, booking: { state: "BOOKING", retries: 1 } });
      const ledger = await invoke("groupLedger", ["G2"]);
      expect(ledger.bookings[waveBookingKey(WAVE, "G2")]).toMatchObject({ state: "PENDING", retries: 1 });
    });

    it("settles a wave from its groups' bookings and reservations, asking for review items once", async () => {
      host = await start();
      await book("G1");
      const claim = await invoke("claim", claimOf("G2"));
      const settleArgs = {
        case: CASE,
        waveUrn: WAVE,
        demandUrn: null,
        allocated: [
          { groupId: "G1", rooms: 1 },
          { groupId: "G2", rooms: 1 },
        ],
        unallocated: [],
        correlationUrn: CORRELATION,
      };
      expect(await invoke("settleWave", settleArgs)).toEqual({ settled: false });

      await invoke("fail", {
        key: claim.booking.key,
        token: claim.token,
        attemptedHotels: [{ hotelUrn: "urn:hotel:h1", reason: "vendor-refused" }],
        staleOffers: [],
        correlationUrn: CORRELATION,
        failure: { category: "BOOKING_FAILED", reason: "sold out", vendorErrorCode: null },
      });
      const settled = await invoke("settleWave", settleArgs);
      expect(settled.settlement).toMatchObject({ outcome: "PARTIAL", roomsBooked: 1 });
      expect(await invoke("settleWave", settleArgs)).toEqual(settled);

      const manual = await invoke("recordManual", manualFor(WAVE));
      expect(manual.reservations).toEqual([manual.reservation]);
      expect((await invoke("settleWave", settleArgs)).settlement).toMatchObject({
        outcome: "FULFILLED",
        roomsBooked: 2,
        reviewItemUrns: settled.settlement.reviewItemUrns,
      });
      await host.settle();
      expect(
        host.events.filter((e) => e.type === BOOKING_EVENTS.reviewItemRequested).map((e) => e.data),
      ).toEqual([expect.objectContaining({ category: "PARTIAL_FULFILLMENT", affectedGroups: ["G2"] })]);
      expect(
        await invoke("requestWave", {
          case: CASE,
          waveUrn: WAVE,
          groupIds: ["G1", "G2"],
          requestedBy: "urn:user:operator",
          correlationUrn: CORRELATION,
        }),
      ).toEqual({ BOOKING: 0, PENDING: 0, BOOKED: 1, FAILED: 1 });
      expect(
        host.events.filter((e) => e.type === BOOKING_EVENTS.waveSettled).map((e) => e.data),
      ).toMatchObject([{ outcome: "PARTIAL" }, { outcome: "FULFILLED", allGroupsBooked: true }]);
    });

    it("refuses a turn before the case's first booking, another case, an unknown reservation; answers a replayed manual reservation", async () => {
      host = await start();
      const cancel = (reservationId: string) =>
        invoke("markCancelled", {
          reservationId,
          by: "urn:user:operator",
          reason: "moved",
          correlationUrn: CORRELATION,
        });
      await expect(cancel("nope")).rejects.toMatchObject({ kind: "not-found", code: "booking-ledger" });

      await book("G1");
      await expect(
        invoke("claim", claimOf("G2", { case: { ...CASE, tenant: "urn:airline:QQ" } })),
      ).rejects.toMatchObject({ kind: "conflict", code: "booking-case-collision" });
      await expect(cancel("nope")).rejects.toMatchObject({ kind: "not-found", code: "reservation" });

      const manual = manualFor(null);
      const first = await invoke("recordManual", manual);
      const replay = await invoke("recordManual", manual);
      expect(replay).toEqual(first);
      await expect(invoke("recordManual", { ...manual, requestId: "request-2" })).rejects.toMatchObject({
        kind: "conflict",
        code: "group-already-booked",
      });
      await host.settle();
      expect(
        host.events.filter((e) => e.type === BOOKING_EVENTS.reservationConfirmed).map((e) => e.data),
      ).toHaveLength(2);
    });
  });
}
