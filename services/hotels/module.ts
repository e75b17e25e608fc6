import { randomBytes } from "node:crypto";
import { AllocationScheduleActor } from "../../actors/AllocationScheduleActor.js";
import { WaveActor } from "../../actors/WaveActor.js";
import { ALLOCATIONS_COLLECTION, WAVES_COLLECTION } from "../../src/app/allocation/wave-documents.js";
import { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import type { ServiceModule } from "../module.js";
import { allocationOf } from "./allocation.js";
import { allocationRoutes } from "./allocation-routes.js";
import { allocationSubscriptions } from "./allocation-subscriptions.js";
import { automationSettingsOf } from "./automation-settings.js";
import { catalogDocumentsOf } from "./catalog-documents.js";
import { contractRoutes } from "./contract-routes.js";
import { seedDemoPolicies } from "./demo-policies.js";
import { hotelRoutes } from "./hotel-routes.js";
import { hotelsOf } from "./hotels.js";

/** Hotels, vendors, search, contracts and allocation waves. */
export const hotelsModule: ServiceModule = {
  name: "hotels",
  actorTypes: [WaveActor, AllocationScheduleActor],
  subscriptions: allocationSubscriptions,
  routes: (context) => {
    const allocation = allocationOf(context);
    return [
      ...hotelRoutes(allocation),
      ...contractRoutes(allocation),
      ...allocationRoutes(allocation, context.runtime.clock),
    ];
  },
  start: async (context) => {
    const { runtime, audit, directory, config } = context;
    const { documents } = runtime;
    await Promise.all([
      documents.collection(WAVES_COLLECTION).ensureIndex({ keys: { tenant: 1, caseUrn: 1, sequence: -1 } }),
      documents.collection(ALLOCATIONS_COLLECTION).ensureIndex({ keys: { tenant: 1, caseUrn: 1 } }),
      documents
        .collection(ALLOCATIONS_COLLECTION)
        .ensureIndex({ keys: { tenant: 1, provider: 1, checkIn: 1 } }),
      allocationOf(context).catalog.load(catalogDocumentsOf(hotelsOf(context).simulators.catalog)),
    ]);
    if (runtime.kind === "embedded" && automationSettingsOf(config).seedDemoPolicies) {
      const index = new PolicyIndex(documents);
      await seedDemoPolicies(
        directory,
        index,
        new PolicyAdministration(runtime.actors, index, audit),
        `urn:trace:${randomBytes(16).toString("hex")}`,
      );
    }
  },
};
