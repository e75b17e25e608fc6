import "reflect-metadata";
import { container } from "tsyringe";
import { describe, expect, it } from "vitest";
import {
  OFFER_CACHE_LIMIT,
  OFFER_CACHE_TTL_MS,
  OFFER_EVENT_TYPES,
  OfferCache,
} from "../../src/app/passengers/offer-cache.js";
import { type PassengerOffer, PassengerOffers } from "../../src/app/passengers/passenger-offer.js";
import type { PassengerSnapshots } from "../../src/app/passengers/passenger-snapshot.js";
import type { HotelCatalogIndex } from "../../src/app/hotels/hotel-catalog.js";
import type { AnswerOffer } from "../../src/app/sub-cases/answer-offer.js";
import type { CaseEntitlements } from "../../src/app/cases/case-entitlements.js";
import type { VoucherTransports } from "../../src/app/transport/voucher-transport.js";
import type { WalletReads } from "../../src/app/wallet/wallet-reads.js";
import type { DrillCases } from "../../src/app/cases/drill-cases.js";
import type { PassengerPrincipal } from "../../src/app/principals.js";
import type { Clock } from "../../src/runtime/clock.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import type { EventSubscription } from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../../services/module.js";
import { PassengerEventStreams } from "../../services/passenger-api/passenger-event-streams.js";
import { passengerEventSubscriptions } from "../../services/passenger-api/passenger-event-subscriptions.js";

const ZX = "urn:airline:ZX";
const VQ = "urn:airline:VQ";

function clockAt(start = 0): Clock & { ms: number } {
  const clock = {
    ms: start,
    now: () => clock.ms,
    setTimer: () => ({ cancel: () => {} }),
  };
  return clock as unknown as Clock & { ms: number };
}

/** A cache whose builds count, answering `<tenant> <case> <group> #<n>`. */
function counted(clock = clockAt()) {
  const cache = new OfferCache<string>(clock);
  let builds = 0;
  const read = (tenant: string, caseId: string, groupId: string) =>
    cache.read(tenant, caseId, groupId, async () => `${tenant} ${caseId} ${groupId} #${++builds}`);
  return { cache, read, clock, builds: () => builds };
}

function event(fields: Partial<DomainEvent> & Pick<DomainEvent, "tenant">): DomainEvent {
  return {
    id: "urn:event:1",
    type: "subcase.resolved",
    occurredAt: new Date(0).toISOString(),
    correlationUrn: "urn:trace:1",
    data: {},
    ...fields,
  };
}

describe("OfferCache", () => {
  it("answers a group's read with its offer as built, and no other group's, case's or tenant's", async () => {
    const { read, builds } = counted();
    expect(await read(ZX, "c1", "G1")).toBe(`${ZX} c1 G1 #1`);
    expect(await read(ZX, "c1", "G1")).toBe(`${ZX} c1 G1 #1`);
    expect(await read(ZX, "c1", "G2")).toBe(`${ZX} c1 G2 #2`);
    expect(await read(ZX, "c2", "G1")).toBe(`${ZX} c2 G1 #3`);
    expect(await read(VQ, "c1", "G1")).toBe(`${VQ} c1 G1 #4`);
    expect(builds()).toBe(4);
  });

  it("builds anew after an event about the case, in either URN form, and keeps the other cases", async () => {
    const { cache, read } = counted();
    await read(ZX, "c1", "G1");
    await read(ZX, "c2", "G1");
    await read(VQ, "c1", "G1");
    cache.purge(event({ tenant: ZX, caseUrn: "urn:case:c1" }));
    expect(await read(ZX, "c1", "G1")).toBe(`${ZX} c1 G1 #4`);
    expect(await read(ZX, "c2", "G1")).toBe(`${ZX} c2 G1 #2`);
    expect(await read(VQ, "c1", "G1")).toBe(`${VQ} c1 G1 #3`);
    // The case only in the data, in its namespaced form.
    cache.purge(event({ tenant: ZX, data: { caseUrn: "urn:zx:case:c2" } }));
    expect(await read(ZX, "c2", "G1")).toBe(`${ZX} c2 G1 #5`);
  });

  it("drops the whole tenant's offers on an event that names no case", async () => {
    const { cache, read } = counted();
    await read(ZX, "c1", "G1");
    await read(VQ, "c1", "G1");
    cache.purge(event({ tenant: ZX, type: "wallet.card-issued" }));
    expect(await read(ZX, "c1", "G1")).toBe(`${ZX} c1 G1 #3`);
    expect(await read(VQ, "c1", "G1")).toBe(`${VQ} c1 G1 #2`);
  });

  it("builds anew after the group's own write, and the group's only", async () => {
    const { cache, read } = counted();
    await read(ZX, "c1", "G1");
    await read(ZX, "c1", "G2");
    cache.drop(ZX, "c1", "G1");
    expect(await read(ZX, "c1", "G1")).toBe(`${ZX} c1 G1 #3`);
    expect(await read(ZX, "c1", "G2")).toBe(`${ZX} c1 G2 #2`);
  });

  it("does not keep a build a purge overtook: it may have read the state from before the change", async () => {
    const clock = clockAt();
    const cache = new OfferCache<string>(clock);
    let release!: () => void;
    const slow = cache.read(
      ZX,
      "c1",
      "G1",
      () => new Promise<string>((resolve) => (release = () => resolve("old"))),
    );
    cache.purge(event({ tenant: ZX, caseUrn: "urn:case:c1" }));
    release();
    expect(await slow).toBe("old");
    expect(await cache.read(ZX, "c1", "G1", async () => "new")).toBe("new");
    expect(await cache.read(ZX, "c1", "G1", async () => "newer")).toBe("new");
  });

  it("builds once for reads that miss together, and keeps a build only another case's purge overtook", async () => {
    const cache = new OfferCache<string>(clockAt());
    let builds = 0;
    let release!: () => void;
    const build = () =>
      new Promise<string>((resolve) => {
        builds++;
        release = () => resolve(`#${builds}`);
      });
    const reads = [cache.read(ZX, "c1", "G1", build), cache.read(ZX, "c1", "G1", build)];
    cache.purge(event({ tenant: ZX, caseUrn: "urn:case:c2" }));
    cache.purge(event({ tenant: VQ, caseUrn: "urn:case:c1" }));
    release();
    expect(await Promise.all(reads)).toEqual(["#1", "#1"]);
    expect(await cache.read(ZX, "c1", "G1", build)).toBe("#1");
    expect(builds).toBe(1);
  });

  it("builds anew once the passenger read cache's max-age has passed", async () => {
    const { read, clock } = counted();
    await read(ZX, "c1", "G1");
    clock.ms += OFFER_CACHE_TTL_MS - 1;
    expect(await read(ZX, "c1", "G1")).toBe(`${ZX} c1 G1 #1`);
    clock.ms += 1;
    expect(await read(ZX, "c1", "G1")).toBe(`${ZX} c1 G1 #2`);
  });

  it("keeps at most its limit, letting the least recently read case go", async () => {
    const { read, builds } = counted();
    for (let i = 0; i < OFFER_CACHE_LIMIT; i++) await read(ZX, `c${i}`, "G1");
    await read(ZX, "c0", "G1");
    await read(ZX, "over", "G1");
    expect(builds()).toBe(OFFER_CACHE_LIMIT + 1);
    await read(ZX, "c0", "G1");
    expect(builds()).toBe(OFFER_CACHE_LIMIT + 1);
    await read(ZX, "c1", "G1");
    expect(builds()).toBe(OFFER_CACHE_LIMIT + 2);
  });
});

describe("the passenger API's subscriptions", () => {
  function wired() {
    const child = container.createChildContainer();
    const cache = new OfferCache<string>(clockAt());
    child.registerInstance(OfferCache, cache as OfferCache);
    const purgedBeforeFanOut: boolean[] = [];
    const streams = {
      fanOut: async () => {
        let rebuilt = false;
        await cache.read(ZX, "c1", "G1", async () => {
          rebuilt = true;
          return "new";
        });
        purgedBeforeFanOut.push(rebuilt);
      },
    };
    child.registerInstance(PassengerEventStreams, streams as unknown as PassengerEventStreams);
    const subscriptions = passengerEventSubscriptions(
      () => ({ container: child, logger: { warn: () => {} } }) as unknown as ModuleContext,
      [ZX],
    ) as EventSubscription[];
    return { cache, subscriptions, purgedBeforeFanOut };
  }

  it("drop a case's offers on every event that changes one, on every replica", async () => {
    const { cache, subscriptions } = wired();
    const offers = subscriptions.find((s) => s.types.includes("reservation.cancelled"))!;
    expect(offers.replicas).toBe("every");
    for (const type of [
      "subcase.resolved",
      "reservation.cancelled",
      "transport.segment-booked",
      "wallet.card-loaded",
    ]) {
      expect(OFFER_EVENT_TYPES).toContain(type);
      await cache.read(ZX, "c1", "G1", async () => "old");
      expect(await offers.handler(event({ tenant: ZX, type, caseUrn: "urn:case:c1" }))).toBe("SUCCESS");
      expect(await cache.read(ZX, "c1", "G1", async () => "new")).toBe("new");
    }
  });

  it("drop the offer before a stream event goes out, since the passenger reloads it on that event", async () => {
    const { cache, subscriptions, purgedBeforeFanOut } = wired();
    const stream = subscriptions.find((s) => s.types.includes("graph.step.progress"))!;
    await cache.read(ZX, "c1", "G1", async () => "old");
    await stream.handler(event({ tenant: ZX, type: "subcase.resolved", caseUrn: "urn:case:c1" }));
    expect(purgedBeforeFanOut).toEqual([true]);
  });
});

describe("PassengerOffers with the cache", () => {
  /** The offer's reads over one sub-case the test changes; no event ever arrives. */
  function offersOver() {
    const subCase = {
      caseUrn: "urn:case:c1",
      subCaseUrn: "urn:sub-case:1",
      groupId: "G1",
      status: "OFFER_READY",
    };
    const state = { subCase, answer: null as null | { kind: string } };
    const snapshots = {
      of: async () => ({
        subCase: { ...state.subCase },
        offer: null,
        offered: undefined,
        answer: state.answer,
      }),
    };
    const answers = {
      accept: async () => {
        state.subCase.status = "RESOLVED";
        state.answer = { kind: "ACCEPTED" };
      },
    };
    const offers = new PassengerOffers(
      snapshots as unknown as PassengerSnapshots,
      {} as HotelCatalogIndex,
      answers as unknown as AnswerOffer,
      { ofGroupInCase: async () => ({}) } as unknown as CaseEntitlements,
      {} as VoucherTransports,
      {} as WalletReads,
      { isDrill: async () => false } as unknown as DrillCases,
      new OfferCache<PassengerOffer>(clockAt()),
    );
    const session = {
      surface: "passenger",
      actorUrn: "urn:passenger:1",
      tenant: ZX,
      caseUrn: "urn:case:c1",
      groupId: "G1",
    } as PassengerPrincipal;
    return { offers, session };
  }

  it("answers an accept, and the reads after it, with the offer as it now stands, before any event", async () => {
    const { offers, session } = offersOver();
    expect((await offers.current(session)).status).toBe("OFFER_READY");
    expect(await offers.accept(session, "urn:trace:1")).toMatchObject({
      status: "RESOLVED",
      answer: { kind: "ACCEPTED" },
    });
    expect((await offers.current(session)).status).toBe("RESOLVED");
  });
});
