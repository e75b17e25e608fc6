import { stayDate } from "../support/overnight-flights.js";
import { SUB_CASE_SAGA_STEPS } from "../../src/workflows/sub-case-saga/model.js";
import { completeWave, guaranteedHotels, oneRoomAllocation } from "../support/completed-wave.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorsOf } from "../support/container.js";
import type {
  NotificationReceipt,
  PassengerNotification,
  PassengerNotifier,
} from "../../src/app/notifications/passenger-notifier.js";
import { AnswerOffer } from "../../src/app/sub-cases/answer-offer.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { parseReservationUrn } from "../../src/domain/reservation.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

/**
 * The sub-case saga on the whole service (embedded runtime, the vendor simulators): a wave booked
 * with the vendors starts one run per group, which offers the stay; the passenger's accept resolves
 * the sub-case, a decline cancels the room with its vendor (the simulator's ledger is the witness),
 * a NON_REFUNDABLE cancellation ends COMPENSATION_FAILED with the vendor's code on the operator
 * read, an operator's compensation answers 202 and runs a saga, and the progress route tells it all.
 */
const ZX = "urn:airline:ZX";
// A week ahead: the rooms' free cancellation (18:00 UTC on check-in day) is still open whenever this runs.
const CHECK_IN = stayDate(7);
const CHECK_OUT = stayDate(8);
const NIGHT = { checkIn: CHECK_IN, checkOut: CHECK_OUT };
const NEXT_DEPARTURE = `${CHECK_OUT}T18:00:00.000Z`;
const enc = encodeURIComponent;
const FORWARD = SUB_CASE_SAGA_STEPS.map((step) => step.name);

let t: TestPlatform;
const tokens: Record<string, string> = {};
const events: DomainEvent[] = [];
const notified: PassengerNotification[] = [];

/** The notifier NOTIFY implements, as the contract says the saga uses it: a recording double here. */
class RecordingNotifier implements PassengerNotifier {
  /** While set, sends wait for it: a run stays PROCESSING at its notify step. */
  hold: Promise<void> | undefined;

  async notify(request: PassengerNotification): Promise<NotificationReceipt> {
    await this.hold;
    const replayed = notified.some((n) => n.dedupeKey === request.dedupeKey);
    if (!replayed) notified.push(request);
    return {
      notificationUrn: `urn:notification:${request.dedupeKey}`,
      channel: "email",
      status: "SENT",
      replayed,
    };
  }
}

async function json(response: Response, status: number): Promise<any> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text ? JSON.parse(text) : undefined;
}

async function openCase(externalEventId: string): Promise<string> {
  const passenger = (id: string) => ({
    id: `${externalEventId}-${id}`,
    firstName: "Ana",
    lastName: "Okafor",
    tier: "ECONOMY",
    contact: { email: "ana@example.com", phone: "+14155550111" },
  });
  const body = await json(
    await t.call("POST", "/v1/cases", tokens.supervisor, {
      externalEventId,
      flight: {
        number: "ZX410",
        origin: "SFO",
        destination: "LHR",
        scheduledDeparture: `${CHECK_IN}T22:00:00Z`,
      },
      nextFlight: { number: "ZX412", scheduledDeparture: NEXT_DEPARTURE },
      passengerGroups: [
        { id: "GA1", pnr: "SAG001", passengers: [passenger("p1")] },
        { id: "GA2", pnr: "SAG002", passengers: [passenger("p2")] },
      ],
    }),
    201,
  );
  return body.urn;
}

/** What allocation leaves behind (a wave, autoBook off), then the operator's book-rooms. */
async function bookCase(caseUrn: string): Promise<void> {
  const usable = await guaranteedHotels(t.platform, ZX, NIGHT);
  const allocations = [
    oneRoomAllocation("GA1", usable[0]!, NIGHT),
    oneRoomAllocation("GA2", usable[1]!, NIGHT),
  ];
  await completeWave(t.platform, { tenant: ZX, caseUrn, allocations });
  await json(await t.call("POST", `/v1/cases/${enc(caseUrn)}/book-rooms`, tokens.supervisor), 202);
}

const subCasePath = (caseUrn: string, groupId: string) =>
  `/v1/subcases/${enc(subCaseUrnFor(caseUrn, groupId))}`;

async function subCase(caseUrn: string, groupId: string): Promise<any> {
  return json(await t.call("GET", subCasePath(caseUrn, groupId), tokens.operator), 200);
}

async function statusBecomes(caseUrn: string, groupId: string, status: string): Promise<any> {
  let last: any;
  await expect
    .poll(
      async () => {
        last = await subCase(caseUrn, groupId);
        return last.status;
      },
      { timeout: 15_000, interval: 25 },
    )
    .toBe(status);
  return last;
}

const request = (caseUrn: string, groupId: string, n: number) => ({
  caseUrn,
  groupId,
  by: `urn:passenger:${groupId}`,
  correlationUrn: `urn:trace:${n.toString(16).padStart(32, "0")}`,
});

/** The vendor-side ledger of a reservation: every CREATED and CANCELLED the simulator recorded. */
function ledgerOf(vendor: string, vendorReservationId: string): string[] {
  const sim = simulatorsOf(t.platform).byId[vendor as "vendor-a"];
  return sim.backend
    .changesSince(-1)
    .filter((c) => c.reservation.reservationId === vendorReservationId)
    .map((c) => c.kind);
}

async function reservationOf(caseUrn: string, reservationUrn: string): Promise<any> {
  const page = await json(
    await t.call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations`, tokens.operator),
    200,
  );
  return page.items.find((r: any) => r.id === parseReservationUrn(reservationUrn)!.id);
}

const ofCase = (caseUrn: string, type: string) =>
  events.filter((e) => e.caseUrn === caseUrn && e.type === type) as Array<DomainEvent<any>>;
const reviewsOf = (caseUrn: string, reason: RegExp) =>
  ofCase(caseUrn, "review-item.requested").filter((e) => reason.test(e.data.reason));

const notifier = new RecordingNotifier();
let caseA: string;
/** The group of case A whose stay is refundable is declined; the other accepts. */
let declining: string;
let accepting: string;

beforeAll(async () => {
  t = await startTestPlatform();
  t.platform.container.register(TOKENS.passengerNotifier, { useValue: notifier });
  t.platform.runtime.bus.subscribe({
    name: "test-sub-case-saga",
    topic: topicFor({ tenant: ZX }),
    handler: async (event) => {
      events.push(event);
      return "SUCCESS";
    },
  });
  for (const [name, user] of [
    ["supervisor", "supervisor@zx.demo"],
    ["operator", "operator@zx.demo"],
    ["vqSupervisor", "supervisor@vq.demo"],
  ] as const) {
    tokens[name] = await t.operatorToken(user);
  }
  caseA = await openCase("saga-e2e-a");
  await bookCase(caseA);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("the sub-case saga on the platform", () => {
  it("starts a run per confirmed stay: the voucher and the passenger's notification, then OFFER_READY until the next departure", async () => {
    const refundable: string[] = [];
    for (const groupId of ["GA1", "GA2"]) {
      const offered = await statusBecomes(caseA, groupId, "OFFER_READY");
      if ((await reservationOf(caseA, offered.offer.reservationUrn)).refundable) refundable.push(groupId);
      expect(offered.offer).toMatchObject({
        reservationUrn: expect.stringMatching(/^urn:reservation:/),
        voucherUrn: expect.stringMatching(/^urn:voucher:/),
        answerBy: NEXT_DEPARTURE,
      });
      expect(offered.sagaInstanceId).toMatch(/^sub-case-saga-/);
    }
    // The simulators' seeded inventory decides which rate is refundable; the decline needs one.
    expect(refundable.length, "a refundable stay to decline").toBeGreaterThan(0);
    declining = refundable[0]!;
    accepting = declining === "GA1" ? "GA2" : "GA1";
    expect(notified.map((n) => [n.groupId, n.template, n.requestedBy]).sort()).toEqual([
      ["GA1", "offer", "urn:system:compensation-saga"],
      ["GA2", "offer", "urn:system:compensation-saga"],
    ]);
    expect(ofCase(caseA, "subcase.offer-ready")).toHaveLength(2);
    // Each run is a step of its own (started, progressing with each of its steps, completed with the
    // offer), and each of its steps too: all with the sub-case and group for the WebSocket and /v1/me/events.
    for (const groupId of ["GA1", "GA2"]) {
      const ofGroup = (type: string) => ofCase(caseA, type).filter((e) => e.data.groupId === groupId);
      const runStep = `urn:step:${(await subCase(caseA, groupId)).sagaInstanceId}`;
      expect(ofGroup("graph.step.started").map((e) => e.data.stepUrn)).toEqual([
        runStep,
        ...FORWARD.map((name) => `${runStep}.${name}`),
      ]);
      expect(ofGroup("graph.step.progress").map((e) => [e.data.stepUrn, e.data.progress])).toEqual(
        FORWARD.map((_, i) => [runStep, (i + 1) / (FORWARD.length + 1)]),
      );
      const completed = ofGroup("graph.step.completed");
      expect(completed.map((e) => e.data.stepUrn)).toEqual([
        ...FORWARD.map((name) => `${runStep}.${name}`),
        runStep,
      ]);
      expect(completed.at(-1)!.data.result).toMatchObject({
        status: "OFFER_READY",
        answerBy: NEXT_DEPARTURE,
      });
      for (const event of [...ofGroup("graph.step.started"), ...completed]) {
        expect(event.data).toMatchObject({ caseUrn: caseA, subCaseUrn: subCaseUrnFor(caseA, groupId) });
      }
    }
  });

  it("reports every sub-case's saga on GET /v1/orchestration/cases/{urn}/progress, to the case's tenant only", async () => {
    const progress = await json(
      await t.call("GET", `/v1/orchestration/cases/${enc(caseA)}/progress`, tokens.operator),
      200,
    );
    expect(progress.caseUrn).toBe(caseA);
    expect(progress.subCases.map((s: any) => [s.groupId, s.status])).toEqual([
      ["GA1", "OFFER_READY"],
      ["GA2", "OFFER_READY"],
    ]);
    const saga = progress.subCases.find((s: any) => s.groupId === accepting).saga;
    expect(saga).toMatchObject({
      runtimeStatus: "RUNNING",
      phase: "awaiting-answer",
      endedAt: null,
      answerBy: NEXT_DEPARTURE,
      lastError: null,
    });
    expect(saga.steps.map((s: any) => [s.name, s.state])).toEqual(FORWARD.map((name) => [name, "COMPLETED"]));
    for (const step of saga.steps)
      expect(Date.parse(step.endedAt)).toBeGreaterThanOrEqual(Date.parse(step.startedAt));

    await json(
      await t.call("GET", `/v1/orchestration/cases/${enc(caseA)}/progress`, tokens.vqSupervisor),
      403,
    );
    await json(
      await t.call(
        "GET",
        `/v1/orchestration/cases/${enc("urn:case:00000000-0000-0000-0000-000000000000")}/progress`,
        tokens.operator,
      ),
      404,
    );
  });

  it("resolves on accept with exactly one subcase.resolved for 100 concurrent accepts, and ends the run", async () => {
    const answers = t.platform.container.resolve(AnswerOffer);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, n) => answers.accept(request(caseA, accepting, n + 1))),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    const resolved = await statusBecomes(caseA, accepting, "RESOLVED");
    expect(resolved.answer).toMatchObject({ kind: "ACCEPTED" });
    await expect
      .poll(async () => {
        const progress = await json(
          await t.call("GET", `/v1/orchestration/cases/${enc(caseA)}/progress`, tokens.operator),
          200,
        );
        return progress.subCases.find((s: any) => s.groupId === accepting).saga.runtimeStatus;
      })
      .toBe("COMPLETED");
    expect(ofCase(caseA, "subcase.resolved")).toHaveLength(1);
    expect(ofCase(caseA, "case.resolved")).toEqual([]);
  });

  it("rolls back on decline: the room is cancelled with its vendor once, an operator gets a review item, and the case is resolved once", async () => {
    const offered = await subCase(caseA, declining);
    const reservation = await reservationOf(caseA, offered.offer.reservationUrn);
    const answers = t.platform.container.resolve(AnswerOffer);
    await answers.decline({ ...request(caseA, declining, 500), reason: "I live nearby" });
    expect((await subCase(caseA, declining)).status).toBe("DECLINED");
    await expect
      .poll(async () => (await reservationOf(caseA, offered.offer.reservationUrn)).status)
      .toBe("CANCELLED");
    expect(ledgerOf(reservation.vendor, reservation.vendorReservationId)).toEqual(["CREATED", "CANCELLED"]);
    await expect.poll(() => ofCase(caseA, "case.resolved").length).toBe(1);
    expect(ofCase(caseA, "case.resolved")[0]!.data).toMatchObject({
      caseUrn: caseA,
      subCases: expect.arrayContaining([
        expect.objectContaining({ groupId: accepting, status: "RESOLVED" }),
        expect.objectContaining({ groupId: declining, status: "DECLINED" }),
      ]),
    });
    await expect.poll(() => reviewsOf(caseA, /declined the offer/).length).toBe(1);
    expect(reviewsOf(caseA, /declined the offer/)[0]!.data).toMatchObject({
      category: "BOOKING_FAILED",
      affectedGroups: [declining],
    });
    expect(ofCase(caseA, "subcase.declined")).toHaveLength(1);
  });

  it("a compensation of the declined group answers 202 at once, runs a saga that finds no stay, and ends FAILED with a review item", async () => {
    const before = await subCase(caseA, declining);
    const accepted = await json(
      await t.call("POST", `${subCasePath(caseA, declining)}/compensate`, tokens.operator, {
        action: "reoffer",
      }),
      202,
    );
    expect(accepted).toMatchObject({ status: "PROCESSING", version: before.version + 1 });
    const failed = await statusBecomes(caseA, declining, "FAILED");
    expect(failed.offer).toBeNull();
    await expect.poll(() => reviewsOf(caseA, /failed at confirm-stay/).length).toBe(1);
    expect(reviewsOf(caseA, /failed at confirm-stay/)[0]!.data.affectedGroups).toEqual([declining]);
    expect(ofCase(caseA, "subcase.failed")).toHaveLength(1);
    expect(ofCase(caseA, "case.resolved")).toHaveLength(1);
  });

  it("refuses a compensation of a RESOLVED sub-case (409 with its state)", async () => {
    const problem = await json(
      await t.call("POST", `${subCasePath(caseA, accepting)}/compensate`, tokens.operator, {}),
      409,
    );
    expect(problem).toMatchObject({
      type: expect.stringMatching(/\/conflict\/sub-case-state$/),
      subCase: { status: "RESOLVED" },
    });
  });
});

describe("an operator's compensation and a cancellation the vendor refuses for good", () => {
  let caseB: string;

  it("compensating an offered sub-case answers 202, replays while its run works, stops the old run and offers again", async () => {
    caseB = await openCase("saga-e2e-b");
    await bookCase(caseB);
    const first = await statusBecomes(caseB, "GA2", "OFFER_READY");
    let release = () => {};
    notifier.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const accepted = await json(
      await t.call("POST", `${subCasePath(caseB, "GA2")}/compensate`, tokens.operator, {
        reason: "new voucher",
      }),
      202,
    );
    const replay = await json(
      await t.call("POST", `${subCasePath(caseB, "GA2")}/compensate`, tokens.operator, {
        reason: "new voucher",
      }),
      202,
    );
    expect(replay.correlationUrn).toBe(accepted.correlationUrn);
    expect((await subCase(caseB, "GA2")).status).toBe("PROCESSING");
    notifier.hold = undefined;
    release();

    const second = await statusBecomes(caseB, "GA2", "OFFER_READY");
    expect(second.sagaInstanceId).not.toBe(first.sagaInstanceId);
    expect(second.offer.reservationUrn).toBe(first.offer.reservationUrn);
    const old = await t.platform.runtime.workflows.get(first.sagaInstanceId);
    expect(old?.runtimeStatus).toBe("TERMINATED");
  });

  it("ends COMPENSATION_FAILED with a manual-reconciliation review item and X-Vendor-Error-Code on the operator read", async () => {
    const offered = await statusBecomes(caseB, "GA1", "OFFER_READY");
    const reservation = await reservationOf(caseB, offered.offer.reservationUrn);
    simulatorsOf(t.platform).byId[reservation.vendor as "vendor-a"].failNext("NON_REFUNDABLE");
    await t.platform.container
      .resolve(AnswerOffer)
      .decline({ ...request(caseB, "GA1", 900), reason: "no thanks" });

    await statusBecomes(caseB, "GA1", "COMPENSATION_FAILED");
    const response = await t.call("GET", subCasePath(caseB, "GA1"), tokens.operator);
    expect(response.headers.get("x-vendor-error-code")).toBe("NON_REFUNDABLE");
    expect(await json(response, 200)).toMatchObject({ vendorErrorCode: "NON_REFUNDABLE" });
    expect(ledgerOf(reservation.vendor, reservation.vendorReservationId)).toEqual(["CREATED"]);
    expect((await reservationOf(caseB, offered.offer.reservationUrn)).status).toBe("CONFIRMED");
    await expect.poll(() => reviewsOf(caseB, /Manual reconciliation/).length).toBe(1);
    expect(reviewsOf(caseB, /Manual reconciliation/)[0]!.data).toMatchObject({
      category: "MANUAL_RECONCILIATION",
      reason: expect.stringContaining("NON_REFUNDABLE"),
    });
    expect(ofCase(caseB, "subcase.compensation-failed")).toHaveLength(1);

    const progress = await json(
      await t.call("GET", `/v1/orchestration/cases/${enc(caseB)}/progress`, tokens.operator),
      200,
    );
    expect(progress.subCases[0]).toMatchObject({
      status: "COMPENSATION_FAILED",
      vendorErrorCode: "NON_REFUNDABLE",
    });
    expect(progress.subCases[0].saga.steps.at(-1)).toMatchObject({
      name: "undo-confirm-stay",
      state: "FAILED",
    });
  });

  it("ends COMPENSATION_FAILED too when the free cancellation is over (BOOKING_PAST_CANCELLATION_DEADLINE)", async () => {
    const offered = await statusBecomes(caseB, "GA2", "OFFER_READY");
    const reservation = await reservationOf(caseB, offered.offer.reservationUrn);
    simulatorsOf(t.platform).byId[reservation.vendor as "vendor-a"].failNext(
      "BOOKING_PAST_CANCELLATION_DEADLINE",
    );
    await t.platform.container
      .resolve(AnswerOffer)
      .decline({ ...request(caseB, "GA2", 901), reason: "not needed" });
    await statusBecomes(caseB, "GA2", "COMPENSATION_FAILED");
    const response = await t.call("GET", subCasePath(caseB, "GA2"), tokens.operator);
    expect(response.headers.get("x-vendor-error-code")).toBe("BOOKING_PAST_CANCELLATION_DEADLINE");
    expect(ledgerOf(reservation.vendor, reservation.vendorReservationId)).toEqual(["CREATED"]);
    await expect.poll(() => ofCase(caseB, "case.resolved").length).toBe(1);
  });
});
