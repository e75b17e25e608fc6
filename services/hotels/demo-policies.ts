import type { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { airlineCodeOf, type PolicyIndex } from "../../src/app/policies/policy-index.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { Directory } from "../../src/app/directory.js";

/** Who writes the demo policies into the audit trail. */
export const DEMO_SEED_ACTOR = "urn:system:demo-seed";

/**
 * The embedded demo's policies: at every airport of every airline, one ACTIVE ON_DEMAND policy
 * that approves up to 300 rooms by itself and accepts 3-star hotels within 25 km, so a pushed
 * disruption runs to reservations with nobody approving anything. Created through the policy use
 * case (audited and indexed like any other), and only where no active policy of the airline applies
 * to that airport yet (one for the airport, or for every airport), so a restart or an operator's own policy is never overwritten.
 */
export async function seedDemoPolicies(
  directory: Directory,
  index: PolicyIndex,
  policies: PolicyAdministration,
  correlationUrn: string,
): Promise<string[]> {
  const seeded: string[] = [];
  for (const organization of await directory.organizations()) {
    const request = { principal: seeder(organization.airlineUrn), correlationUrn, reason: "demo seed" };
    for (const airport of organization.airports) {
      const active = await index.activePage(organization.airlineUrn, airport.code, { limit: 200 });
      if (active.items.length > 0) continue;
      const draft = await policies.create(request, {
        name: `Demo: ${airport.code} hotels on demand`,
        context: { airport: airport.code, airline: airlineCodeOf(organization.airlineUrn) },
        constraints: { minStars: 3, maxDistanceKm: 25 },
        mode: "ON_DEMAND",
        autoApproveDemand: true,
        maxAutomaticRoomsPerWave: 300,
      });
      const activated = await policies.activate(request, draft.urn);
      seeded.push(activated.urn);
    }
  }
  return seeded;
}

function seeder(tenant: string): OperatorPrincipal {
  return {
    surface: "operator",
    actorUrn: DEMO_SEED_ACTOR,
    tenant,
    role: "ADMIN",
    amr: [],
    expiresAt: Number.MAX_SAFE_INTEGER,
  };
}
