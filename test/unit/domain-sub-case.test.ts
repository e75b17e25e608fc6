import { describe, expect, it } from "vitest";
import {
  accept,
  acquireLock,
  assertFencing,
  closeWithCase,
  compensationFailed,
  decline,
  failProcessing,
  offerReady,
  openSubCase,
  releaseLock,
  releaseLockOnDisconnect,
  reopenWithCase,
  type SubCase,
  type SubCaseStatus,
  startRun,
  submitCompensation,
  subCaseUrnFor,
} from "../../src/domain/sub-case.js";
import { refusal } from "../support/refusal.js";

const caseUrn = "urn:case:c1";
const t0 = new Date("2026-11-21T23:00:00.000Z");
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const TTL = 60_000;
const alice = "urn:user:alice";
const bob = "urn:user:bob";
const offer = { reservationUrn: "urn:reservation:r1", voucherUrn: "urn:voucher:v1", answerBy: null };

function subCaseIn(status: SubCaseStatus): SubCase {
  return { ...openSubCase(caseUrn, "ABC123", t0), status };
}

describe("sub-case identity", () => {
  it("derives the same urn:sub-case URN from the same case and group", () => {
    const urn = subCaseUrnFor(caseUrn, "ABC123");
    expect(urn).toMatch(/^urn:sub-case:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(subCaseUrnFor(caseUrn, "ABC123")).toBe(urn);
    expect(subCaseUrnFor(caseUrn, "XYZ789")).not.toBe(urn);
    expect(openSubCase(caseUrn, "ABC123", t0)).toMatchObject({
      urn,
      status: "OPEN",
      version: 1,
      lastFencingToken: 0,
    });
  });
});

describe("sub-case transitions (spec 3.4)", () => {
  const compensation = { by: alice, correlationUrn: "urn:correlation:k1" };
  it.each([
    [
      "submit compensation",
      "OPEN",
      (s: SubCase) => submitCompensation(s, compensation, t0),
      "PROCESSING",
      "subcase.processing",
    ],
    [
      "submit compensation again after a failure",
      "FAILED",
      (s: SubCase) => submitCompensation(s, compensation, t0),
      "PROCESSING",
      "subcase.processing",
    ],
    [
      "submit compensation after a decline",
      "DECLINED",
      (s: SubCase) => submitCompensation(s, compensation, t0),
      "PROCESSING",
      "subcase.processing",
    ],
    [
      "saga succeeded",
      "PROCESSING",
      (s: SubCase) => offerReady(s, t0, offer),
      "OFFER_READY",
      "subcase.offer-ready",
    ],
    [
      "vendor failed permanently",
      "PROCESSING",
      (s: SubCase) => failProcessing(s, t0),
      "FAILED",
      "subcase.failed",
    ],
    ["passenger accepts", "OFFER_READY", (s: SubCase) => accept(s, t0), "RESOLVED", "subcase.resolved"],
    ["passenger declines", "OFFER_READY", (s: SubCase) => decline(s, t0), "DECLINED", "subcase.declined"],
    [
      "cancellation fails during rollback",
      "DECLINED",
      (s: SubCase) => compensationFailed(s, t0),
      "COMPENSATION_FAILED",
      "subcase.compensation-failed",
    ],
    [
      "cancellation fails during the saga",
      "PROCESSING",
      (s: SubCase) => compensationFailed(s, t0),
      "COMPENSATION_FAILED",
      "subcase.compensation-failed",
    ],
    [
      "cancellation fails after acceptance",
      "RESOLVED",
      (s: SubCase) => compensationFailed(s, t0),
      "COMPENSATION_FAILED",
      "subcase.compensation-failed",
    ],
  ] as const)("%s: %s → %s", (_name, from, move, to, event) => {
    const before = subCaseIn(from);
    const result = move(before);
    expect(result).toMatchObject({
      changed: true,
      event,
      subCase: { status: to, version: before.version + 1 },
    });
  });

  it.each([
    ["a repeat accept", "RESOLVED", accept],
    ["a repeat compensation failure", "COMPENSATION_FAILED", compensationFailed],
  ] as const)("%s changes nothing and publishes nothing", (_name, status, move) => {
    const before = subCaseIn(status);
    expect(move(before, t0)).toEqual({ subCase: before, changed: false });
  });

  it.each([
    ["accept", accept, "DECLINED", "offer-already-declined"],
    ["decline", decline, "RESOLVED", "offer-already-accepted"],
    ["decline", decline, "DECLINED", "offer-already-declined"],
    ["accept", accept, "OPEN", "offer-not-ready"],
    ["accept", accept, "PROCESSING", "offer-not-ready"],
    ["decline", decline, "FAILED", "offer-not-ready"],
    ["offer ready", (s: SubCase, now: Date) => offerReady(s, now, offer), "OPEN", "sub-case-state"],
    ["failure", failProcessing, "OFFER_READY", "sub-case-state"],
  ] as const)("%s on %s is a conflict (%s)", (_name, move, status, code) => {
    expect(refusal(() => move(subCaseIn(status), t0))).toMatchObject({ kind: "conflict", code });
  });

  it.each(["PROCESSING", "RESOLVED"] as const)("compensation is refused on %s", (status) => {
    expect(refusal(() => submitCompensation(subCaseIn(status), compensation, t0)).code).toBe(
      "sub-case-state",
    );
  });

  it("compensation checks the expected version and records the correlation", () => {
    const open = subCaseIn("OPEN");
    expect(
      refusal(() => submitCompensation(open, { ...compensation, expectedVersion: 7 }, t0)),
    ).toMatchObject({
      code: "version-mismatch",
      details: { currentVersion: 1 },
    });
    expect(submitCompensation(open, { ...compensation, expectedVersion: 1 }, t0).subCase.correlationUrn).toBe(
      "urn:correlation:k1",
    );
  });
});

describe("operator lock", () => {
  it("grants a free lock with the next fencing token and its expiry", () => {
    const { subCase, lock, renewed } = acquireLock(subCaseIn("OPEN"), alice, t0, TTL);
    expect(renewed).toBe(false);
    expect(lock).toEqual({ lockedBy: alice, expiresAt: at(60).toISOString(), fencingToken: 1 });
    expect(subCase).toMatchObject({ lock, lastFencingToken: 1 });
  });

  it("renewal by the holder extends the expiry and keeps the token", () => {
    const first = acquireLock(subCaseIn("OPEN"), alice, t0, TTL);
    const again = acquireLock(first.subCase, alice, at(30), TTL);
    expect(again.renewed).toBe(true);
    expect(again.lock).toEqual({ lockedBy: alice, expiresAt: at(90).toISOString(), fencingToken: 1 });
  });

  it.each([
    [0, 60],
    [59, 1],
    [59.5, 1],
  ])(
    "another operator at +%ss is refused with lockedBy and expiresInSeconds %i",
    (seconds, expiresInSeconds) => {
      const held = acquireLock(subCaseIn("OPEN"), alice, t0, TTL).subCase;
      expect(refusal(() => acquireLock(held, bob, at(seconds), TTL))).toMatchObject({
        kind: "conflict",
        code: "sub-case-locked",
        details: { lockedBy: alice, expiresInSeconds },
      });
    },
  );

  it.each([60, 61, 3600])("an expired lock (at +%ss) can be taken, with a higher token", (seconds) => {
    const held = acquireLock(subCaseIn("OPEN"), alice, t0, TTL).subCase;
    const taken = acquireLock(held, bob, at(seconds), TTL);
    expect(taken.lock).toMatchObject({ lockedBy: bob, fencingToken: 2 });
    expect(taken.renewed).toBe(false);
  });

  it("the holder re-taking its own expired lock gets a new token", () => {
    const held = acquireLock(subCaseIn("OPEN"), alice, t0, TTL).subCase;
    expect(acquireLock(held, alice, at(61), TTL).lock.fencingToken).toBe(2);
  });

  it("tokens keep growing across releases", () => {
    let subCase = subCaseIn("OPEN");
    const tokens: number[] = [];
    for (const [who, second] of [
      [alice, 0],
      [bob, 10],
      [alice, 20],
    ] as const) {
      const grant = acquireLock(subCase, who, at(second), TTL);
      tokens.push(grant.lock.fencingToken);
      subCase = releaseLock(grant.subCase, who, grant.lock.fencingToken, at(second + 1)).subCase;
    }
    expect(tokens).toEqual([1, 2, 3]);
    expect(subCase.lock).toBeUndefined();
  });

  it("refuses a lock lasting no time", () => {
    expect(refusal(() => acquireLock(subCaseIn("OPEN"), alice, t0, 0)).code).toBe("invalid-lock-ttl");
  });

  describe("release", () => {
    const held = acquireLock(subCaseIn("OPEN"), alice, t0, TTL).subCase;

    it("by the holder with its token", () => {
      expect(releaseLock(held, alice, 1, at(5))).toMatchObject({
        changed: true,
        subCase: { lastFencingToken: 1 },
      });
      expect(releaseLock(held, alice, 1, at(5)).subCase.lock).toBeUndefined();
    });

    it("refuses another operator, and the holder with a wrong token", () => {
      expect(refusal(() => releaseLock(held, bob, 1, at(5))).code).toBe("sub-case-locked");
      expect(refusal(() => releaseLock(held, alice, 2, at(5))).code).toBe("stale-fencing-token");
    });

    it("of a lock that is gone or expired changes nothing that matters", () => {
      expect(releaseLock(subCaseIn("OPEN"), alice, 1, t0).changed).toBe(false);
      expect(releaseLock(held, bob, 1, at(60)).subCase.lock).toBeUndefined();
    });

    it("when the holder's connection drops, without a token", () => {
      expect(releaseLockOnDisconnect(held, alice, at(5)).subCase.lock).toBeUndefined();
      expect(releaseLockOnDisconnect(held, bob, at(5))).toEqual({ subCase: held, changed: false });
    });
  });

  describe("fencing", () => {
    const held = acquireLock(subCaseIn("OPEN"), alice, t0, TTL).subCase;

    it.each([
      ["the live token on a locked sub-case", held, 1, 10, true],
      ["no token on a locked sub-case", held, undefined, 10, false],
      [
        "an old token on a locked sub-case",
        { ...held, lock: { ...held.lock!, fencingToken: 2 }, lastFencingToken: 2 },
        1,
        10,
        false,
      ],
      ["no token on an unlocked sub-case", subCaseIn("OPEN"), undefined, 10, true],
      ["a token whose lock expired", held, 1, 60, false],
      ["no token once the lock expired", held, undefined, 60, true],
    ] as const)("%s → %s", (_name, subCase, token, second, allowed) => {
      const check = () => assertFencing(subCase, token, at(second));
      if (allowed) expect(check).not.toThrow();
      else expect(refusal(check)).toMatchObject({ kind: "conflict", code: "stale-fencing-token" });
    });

    it("compensation needs the live token while another operator holds the lock", () => {
      const request = { by: bob, correlationUrn: "urn:correlation:k2" };
      expect(refusal(() => submitCompensation(held, request, at(5))).code).toBe("stale-fencing-token");
      expect(submitCompensation(held, { ...request, by: alice, fencingToken: 1 }, at(5)).changed).toBe(true);
    });
  });
});

describe("closed case", () => {
  const closed = closeWithCase(acquireLock(subCaseIn("OFFER_READY"), alice, t0, TTL).subCase, at(1));

  it("drops the lock and freezes the sub-case", () => {
    expect(closed.lock).toBeUndefined();
    expect(closed.caseClosedAt).toBe(at(1).toISOString());
  });

  it.each([
    ["accept", (s: SubCase) => accept(s, at(2))],
    ["decline", (s: SubCase) => decline(s, at(2))],
    [
      "compensate",
      (s: SubCase) => submitCompensation(s, { by: alice, correlationUrn: "urn:correlation:k" }, at(2)),
    ],
    ["offer ready", (s: SubCase) => offerReady(s, at(2), offer)],
    ["compensation failed", (s: SubCase) => compensationFailed(s, at(2))],
    ["lock", (s: SubCase) => acquireLock(s, alice, at(2), TTL)],
  ])("refuses %s", (_name, change) => {
    expect(refusal(() => change(closed))).toMatchObject({ kind: "conflict", code: "case-closed" });
  });

  it("takes changes again once the case is reopened", () => {
    expect(accept(reopenWithCase(closed, at(3)), at(4)).subCase.status).toBe("RESOLVED");
  });
});

describe("saga runs and the offer", () => {
  const run = { correlationUrn: "urn:correlation:r1", sagaInstanceId: "sub-case-saga-1" };

  it("lets the saga start on an OPEN sub-case once; the same run again changes nothing", () => {
    const started = startRun(subCaseIn("OPEN"), run, t0);
    expect(started).toMatchObject({
      changed: true,
      event: "subcase.processing",
      subCase: { status: "PROCESSING", sagaInstanceId: run.sagaInstanceId },
    });
    expect(startRun(started.subCase, run, t0)).toEqual({ subCase: started.subCase, changed: false });
    expect(refusal(() => startRun(subCaseIn("OFFER_READY"), run, t0)).code).toBe("sub-case-state");
  });

  it("keeps the offer and the answer, and a new compensation run drops both", () => {
    const ready = offerReady(startRun(subCaseIn("OPEN"), run, t0).subCase, at(1), offer).subCase;
    const declined = decline(ready, at(2), { by: "urn:passenger:p1", reason: "too far" }).subCase;
    expect(declined).toMatchObject({
      offer,
      answer: { kind: "DECLINED", at: at(2).toISOString(), reason: "too far", by: "urn:passenger:p1" },
    });
    const again = submitCompensation(
      declined,
      { by: alice, correlationUrn: "urn:correlation:r2", sagaInstanceId: "sub-case-saga-2" },
      at(3),
    ).subCase;
    expect(again).toMatchObject({ status: "PROCESSING", sagaInstanceId: "sub-case-saga-2" });
    expect(again.offer).toBeUndefined();
    expect(again.answer).toBeUndefined();
  });

  it("records the vendor's code of a failure", () => {
    expect(compensationFailed(subCaseIn("DECLINED"), t0, "NON_REFUNDABLE").subCase.vendorErrorCode).toBe(
      "NON_REFUNDABLE",
    );
    expect(failProcessing(subCaseIn("PROCESSING"), t0, "NO_AVAILABILITY").subCase.vendorErrorCode).toBe(
      "NO_AVAILABILITY",
    );
  });
});
