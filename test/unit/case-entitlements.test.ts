import { describe, expect, it } from "vitest";
import type { CaseSnapshot } from "../../actors/CaseActor.js";
import { CaseEntitlements } from "../../src/app/cases/case-entitlements.js";
import type { Directory } from "../../src/app/directory.js";
import type { PolicyIndex } from "../../src/app/policies/policy-index.js";
import type { Policy } from "../../src/domain/policy/policy.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";
import type { CaseChanges } from "../../src/app/cases/case-changes.js";
import { caseIn } from "./case-fixture.js";

/** The case `opening()` opens, as the case actor's snapshot shows it. */
function snapshotAt(version: number): CaseSnapshot {
  return {
    case: { ...caseIn(), version },
    intake: { source: "operator" },
    reservations: [],
    localResidentGroups: [],
    reviewItems: [],
    passengerPnrs: {},
  } as unknown as CaseSnapshot;
}

const JFK = { code: "JFK", name: "John F. Kennedy", city: "New York", country: "US", lat: 40.64, lon: -73.78 };
const LHR = { code: "LHR", name: "Heathrow", city: "London", country: "GB", lat: 51.47, lon: -0.45 };

/** A JFK policy with a meal allowance of `amount` (in the currency's major unit) per meal. */
const policy = (version: number, amount: number) =>
  ({ urn: "urn:policy:jfk", version, mealAllowance: { amount } }) as unknown as Policy;

describe("a case's entitlements (the case read's)", () => {
  it("are the same object while the case's version and its policies' versions are the same", async () => {
    let active: Policy | undefined;
    const entitlements = new CaseEntitlements(
      {
        organizations: async () => [{ airports: [JFK, LHR] }],
        findOrganization: async () => undefined,
      } as unknown as Directory,
      {
        resolveEach: async (_tenant: string, _airport: string, tiers: readonly unknown[]) =>
          tiers.map(() => active),
      } as unknown as PolicyIndex,
      {} as ActorRuntime,
      {} as CaseChanges,
    );
    const first = await entitlements.of(snapshotAt(1));
    expect(await entitlements.of(snapshotAt(1))).toBe(first);

    active = policy(1, 12);
    const underPolicy = await entitlements.of(snapshotAt(1));
    expect(underPolicy).not.toBe(first);
    expect(underPolicy.mealAllowance.source).toContain("urn:policy:jfk");
    expect(await entitlements.of(snapshotAt(1))).toBe(underPolicy);

    active = policy(2, 20);
    const patched = await entitlements.of(snapshotAt(1));
    expect(patched).not.toBe(underPolicy);
    expect(patched.groups).not.toEqual(underPolicy.groups);

    const changed = await entitlements.of(snapshotAt(2));
    expect(changed).not.toBe(patched);
    expect(changed).toEqual(patched);
    expect(await entitlements.of(snapshotAt(2))).toBe(changed);
  });
});
