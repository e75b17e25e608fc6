/**
 * The wiring: the composition root (src/main.ts) binds every adapter under its token in one
 * container per platform, every module registers its use cases there, and routes, handlers and
 * tests resolve them from it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { container, type DependencyContainer, type InjectionToken } from "tsyringe";
import { BookingFlow } from "../../src/app/booking/booking-flow.js";
import { HotelSearch } from "../../src/app/hotel-search.js";
import { ReviewQueueIndex } from "../../src/app/manual-review/review-queue-index.js";
import { MODULES } from "../../src/main.js";
import { ManualClock } from "../../src/runtime/clock.js";
import type { DocumentStore } from "../../src/runtime/document-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { moduleContainer, simulatorsOf } from "../support/container.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

/** Every token the modules register, in the order they register them. */
function moduleRegistrations(): InjectionToken<unknown>[] {
  const tokens: InjectionToken<unknown>[] = [];
  const recorder = {
    register(token: InjectionToken<unknown>) {
      tokens.push(token);
      return recorder;
    },
    registerSingleton(token: InjectionToken<unknown>) {
      tokens.push(token);
      return recorder;
    },
  };
  for (const module of MODULES) module.register?.(recorder as unknown as DependencyContainer);
  return tokens;
}

const nameOf = (token: InjectionToken<unknown>) => (typeof token === "function" ? token.name : String(token));

/** A document store that records which collections its users open. */
function recordingStore(): { store: DocumentStore; opened: string[] } {
  const memory = new MemoryDocumentStore();
  const opened: string[] = [];
  const store = new Proxy<DocumentStore>(memory, {
    get(target, property) {
      if (property === "collection") {
        return (name: string) => {
          opened.push(name);
          return target.collection(name);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store, opened };
}

let first: TestPlatform;
let second: TestPlatform;

beforeAll(async () => {
  [first, second] = await Promise.all([startTestPlatform(), startTestPlatform()]);
});

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
});

describe("the platform container", () => {
  const registered = moduleRegistrations();

  it("has use cases registered by the modules", () => {
    expect(registered.length).toBeGreaterThan(40);
    expect(new Set(registered).size).toBe(registered.length);
  });

  it("resolves every use case every module registers, each once per platform", () => {
    const unresolved: string[] = [];
    for (const token of registered) {
      try {
        const instance = first.platform.container.resolve(token);
        expect(instance).toBeDefined();
        if (typeof token === "function") expect(instance).toBeInstanceOf(token);
        expect(first.platform.container.resolve(token)).toBe(instance);
      } catch (error) {
        unresolved.push(`${nameOf(token)}: ${String(error)}`);
      }
    }
    expect(unresolved).toEqual([]);
  });

  it("binds every token, with the adapters the composition root chose", () => {
    const { platform } = first;
    // The flight-state stream and the disruption-push binding are bound only when
    // FLIGHT_STATE_SOURCE and DISRUPTION_PUSH_BINDING name one (both off by default).
    const optional: symbol[] = [TOKENS.flightStateSource, TOKENS.disruptionPushBinding];
    for (const token of Object.values(TOKENS)) {
      expect(platform.container.isRegistered(token, true)).toBe(!optional.includes(token));
    }
    expect(platform.container.resolve(TOKENS.runtime)).toBe(platform.runtime);
    expect(platform.container.resolve(TOKENS.documents)).toBe(platform.runtime.documents);
    expect(platform.container.resolve(TOKENS.actors)).toBe(platform.runtime.actors);
    expect(platform.container.resolve(TOKENS.clock)).toBe(platform.runtime.clock);
    expect(platform.container.resolve(TOKENS.audit)).toBe(platform.audit);
  });

  it("gives use cases the adapters bound under their tokens: another store, another use case's store", async () => {
    const a = recordingStore();
    const b = recordingStore();
    const clock = new ManualClock("2030-01-01T00:00:00Z");
    const withA = moduleContainer({ documents: a.store, clock });
    const withB = moduleContainer({ documents: b.store, clock });
    await withA.resolve(ReviewQueueIndex).ensureIndexes();
    expect(a.opened.length).toBeGreaterThan(0);
    expect(b.opened).toEqual([]);
    await withB.resolve(ReviewQueueIndex).ensureIndexes();
    expect(b.opened).toEqual(a.opened);
  });

  it("keeps two platforms in one process apart: no use case or adapter is shared", () => {
    const shared = registered.filter(
      (token) => first.platform.container.resolve(token) === second.platform.container.resolve(token),
    );
    expect(shared.map(nameOf)).toEqual([]);
    expect(simulatorsOf(first.platform)).not.toBe(simulatorsOf(second.platform));
    expect(first.platform.container.resolve(TOKENS.vendors)).not.toBe(
      second.platform.container.resolve(TOKENS.vendors),
    );
    expect(first.platform.container.resolve(HotelSearch)).not.toBe(
      second.platform.container.resolve(HotelSearch),
    );
  });

  it("registers nothing in the global container", () => {
    for (const token of [...registered, ...Object.values(TOKENS)]) {
      expect(container.isRegistered(token, false)).toBe(false);
    }
    expect(container.isRegistered(BookingFlow)).toBe(false);
  });
});
