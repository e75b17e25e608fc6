import { randomUuid } from "../../src/domain/uuid.js";
import { beforeEach, describe, expect, it } from "vitest";
import { createVendorSimulators } from "../../services/vendor-sim/simulators.js";
import { CircuitOpenError } from "../../src/vendors/circuit-open-error.js";
import { asProblemError } from "../../src/http/problem.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { CircuitBreaker } from "../../src/vendors/circuit-breaker.js";
import { VendorError } from "../../src/vendors/vendor-error.js";
import { demoVendorClient } from "./vendor-client-fixture.js";

const STAY = { airport: "GRU", checkIn: "2026-03-10", checkOut: "2026-03-11", rooms: 1 };
const COOL_DOWN = 30_000;

let clock: ManualClock;
let breaker: CircuitBreaker;
let invoked: number;

beforeEach(() => {
  clock = new ManualClock("2026-03-10T08:00:00Z");
  breaker = new CircuitBreaker("vendor-x", "booking", clock, { failureThreshold: 3, coolDownMs: COOL_DOWN });
  invoked = 0;
});

const transient = () => new VendorError({ vendor: "vendor-x", httpStatus: 503 });
const isTransient = (error: unknown) => error instanceof VendorError && error.retryable;

function succeed(): Promise<string> {
  invoked++;
  return Promise.resolve("ok");
}

function fail(error: unknown = transient()): Promise<string> {
  invoked++;
  return Promise.reject(error);
}

async function failTimes(count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    await expect(breaker.run(() => fail(), isTransient)).rejects.toBeInstanceOf(VendorError);
}

async function openBreaker(): Promise<void> {
  await failTimes(3);
  expect(breaker.state()).toBe("open");
}

describe("circuit breaker", () => {
  it("opens after N consecutive transient failures", async () => {
    await failTimes(2);
    expect(breaker.state()).toBe("closed");
    await failTimes(1);
    expect(breaker.state()).toBe("open");
  });

  it("counts only consecutive failures: a success or a permanent refusal in between resets the count", async () => {
    await failTimes(2);
    await breaker.run(succeed, isTransient);
    await failTimes(2);
    await expect(
      breaker.run(
        () => fail(new VendorError({ vendor: "vendor-x", code: "NON_REFUNDABLE", httpStatus: 409 })),
        isTransient,
      ),
    ).rejects.toMatchObject({ classification: "permanent" });
    await failTimes(2);
    expect(breaker.state()).toBe("closed");
  });

  it("refuses calls with CircuitOpenError(domain) while open, without calling the vendor", async () => {
    await openBreaker();
    invoked = 0;
    const refusal = await breaker.run(succeed, isTransient).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(CircuitOpenError);
    expect((refusal as CircuitOpenError).failedDomain).toBe("booking");
    expect(invoked).toBe(0);
    const problem = asProblemError(refusal);
    expect(problem.status).toBe(503);
    expect(problem.extensions.failedDomain).toBe("booking");
    expect(problem.headers["Retry-After"]).toBe("30");
  });

  it("is half-open after the cool-down and lets exactly one trial through", async () => {
    await openBreaker();
    await clock.advance(COOL_DOWN - 1);
    expect(breaker.state()).toBe("open");
    await clock.advance(1);
    expect(breaker.state()).toBe("half-open");

    let finishTrial!: (value: string) => void;
    const trial = breaker.run(() => new Promise<string>((resolve) => (finishTrial = resolve)), isTransient);
    await expect(breaker.run(succeed, isTransient)).rejects.toBeInstanceOf(CircuitOpenError);
    finishTrial("ok");
    expect(await trial).toBe("ok");
    expect(breaker.state()).toBe("closed");
    expect(await breaker.run(succeed, isTransient)).toBe("ok");
  });

  it("re-opens for another cool-down when the trial fails", async () => {
    await openBreaker();
    await clock.advance(COOL_DOWN);
    await expect(breaker.run(() => fail(), isTransient)).rejects.toBeInstanceOf(VendorError);
    expect(breaker.state()).toBe("open");
    await clock.advance(COOL_DOWN - 1);
    await expect(breaker.run(succeed, isTransient)).rejects.toBeInstanceOf(CircuitOpenError);
    await clock.advance(1);
    expect(await breaker.run(succeed, isTransient)).toBe("ok");
    expect(breaker.state()).toBe("closed");
  });
});

describe("vendor client breakers", () => {
  it("opens the inventory circuit of a failing vendor and leaves its booking circuit closed", async () => {
    const sims = createVendorSimulators({ seed: 5, clock });
    const sim = sims.byId["vendor-b"];
    const reached: string[] = [];
    const client = demoVendorClient(
      "vendor-b",
      {
        send(request) {
          reached.push(request.path.split("?")[0]!);
          return sim.handle(request);
        },
      },
      clock,
      {
        breaker: { failureThreshold: 3, coolDownMs: COOL_DOWN },
        retry: { inventory: { maxAttempts: 1, baseDelayMs: 0, rateLimitedBaseDelayMs: 0, maxDelayMs: 0 } },
      },
    );
    const offers = await client.search(STAY);
    sim.failNext("unavailable", 3);
    for (let i = 0; i < 3; i++)
      await expect(client.search(STAY)).rejects.toMatchObject({ classification: "transient" });
    expect(client.circuitState("inventory")).toBe("open");

    const before = reached.length;
    const refusal = await client.search(STAY).catch((e: unknown) => e);
    expect(CircuitOpenError.is(refusal) && refusal.failedDomain).toBe("inventory");
    expect(reached.length).toBe(before);

    expect(client.circuitState("booking")).toBe("closed");
    const guaranteed = offers.find((o) => o.payments.includes("GUARANTEE"))!;
    await expect(
      client.book({
        providerOfferId: guaranteed.providerOfferId,
        rooms: 1,
        guestNames: ["A"],
        payment: { method: "GUARANTEE" },
        idempotencyKey: randomUuid(),
      }),
    ).resolves.toMatchObject({ status: "CONFIRMED" });

    await clock.advance(COOL_DOWN);
    expect(client.circuitState("inventory")).toBe("half-open");
    expect((await client.search(STAY)).length).toBeGreaterThan(0);
    expect(client.circuitState("inventory")).toBe("closed");
  });

  it("stops retrying once the circuit opens mid-retry", async () => {
    const sims = createVendorSimulators({ seed: 5, clock });
    const sim = sims.byId["vendor-a"];
    const client = demoVendorClient("vendor-a", { send: (request) => sim.handle(request) }, clock, {
      random: () => 0,
      breaker: { failureThreshold: 2, coolDownMs: COOL_DOWN },
      retry: { inventory: { maxAttempts: 5, baseDelayMs: 10, rateLimitedBaseDelayMs: 10, maxDelayMs: 10 } },
    });
    await client.search(STAY);
    sim.failNext("server-error", 5);
    const outcome = client.search(STAY).catch((e: unknown) => e);
    await clock.advance(100);
    expect(CircuitOpenError.is(await outcome)).toBe(true);
  });
});
