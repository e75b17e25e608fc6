import type { ContractImageReader } from "../../src/vendors/contract-image-reader.js";
import { randomBytes } from "node:crypto";
import { AllocationScheduleActor } from "../../actors/AllocationScheduleActor.js";
import { WaveActor } from "../../actors/WaveActor.js";
import { ALLOCATIONS_COLLECTION, WAVES_COLLECTION } from "../../src/app/allocation/wave-documents.js";
import { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import type { ServiceModule } from "../module.js";
import type { VendorSimulators } from "../vendor-sim/simulators.js";
import { allocationRoutes } from "./allocation-routes.js";
import { allocationSubscriptions } from "./allocation-subscriptions.js";
import { allocationUseCases, registerAllocationUseCases } from "./allocation-use-cases.js";
import { automationSettingsOf } from "./automation-settings.js";
import { catalogDocumentsOf } from "./catalog-documents.js";
import { contractRoutes } from "./contract-routes.js";
import { seedDemoPolicies } from "./demo-policies.js";
import { hotelRoutes } from "./hotel-routes.js";

/** Hotels, vendors, search, contracts and allocation waves. */
export const hotelsModule: ServiceModule = {
  name: "hotels",
  actorTypes: [WaveActor, AllocationScheduleActor],
  register: registerAllocationUseCases,
  subscriptions: (context, tenants) => ({ workers: allocationSubscriptions(context, tenants) }),
  routes: (context) => {
    const allocation = allocationUseCases(context.container);
    return [
      ...hotelRoutes(allocation),
      ...contractRoutes(
        allocation,
        context.container.isRegistered(TOKENS.contractImageReader, true)
          ? context.container.resolve<ContractImageReader>(TOKENS.contractImageReader)
          : undefined,
      ),
      ...allocationRoutes(allocation, context.runtime.clock),
    ];
  },
  start: async (context) => {
    const { runtime, directory, config, container } = context;
    const { documents } = runtime;
    // The catalog is the demo inventory's, whether the simulators run here or in the vendor-sim app.
    const simulators = container.resolve<VendorSimulators>(TOKENS.vendorSimulators);
    await Promise.all([
      documents.collection(WAVES_COLLECTION).ensureIndex({ keys: { tenant: 1, caseUrn: 1, sequence: -1 } }),
      documents.collection(ALLOCATIONS_COLLECTION).ensureIndex({ keys: { tenant: 1, caseUrn: 1 } }),
      documents
        .collection(ALLOCATIONS_COLLECTION)
        .ensureIndex({ keys: { tenant: 1, provider: 1, checkIn: 1 } }),
      allocationUseCases(container).catalog.load(catalogDocumentsOf(simulators.catalog)),
    ]);
    if (runtime.kind === "embedded" && automationSettingsOf(config).seedDemoPolicies) {
      await seedDemoPolicies(
        directory,
        container.resolve(PolicyIndex),
        container.resolve(PolicyAdministration),
        `urn:trace:${randomBytes(16).toString("hex")}`,
      );
    }
  },
};
