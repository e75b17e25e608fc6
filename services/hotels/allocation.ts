import { AllocationTriggers } from "../../src/app/allocation/allocation-triggers.js";
import { AllocationWaves } from "../../src/app/allocation/allocation-waves.js";
import { IntakeDemand } from "../../src/app/allocation/intake-demand.js";
import { WaveOverrides } from "../../src/app/allocation/wave-override.js";
import { WaveReads } from "../../src/app/allocation/wave-reads.js";
import { DemandAdministration } from "../../src/app/demand/demand-administration.js";
import { DemandIndex } from "../../src/app/demand/demand-index.js";
import { ContractBook } from "../../src/app/hotels/contracts.js";
import { HotelCatalogIndex } from "../../src/app/hotels/hotel-catalog.js";
import { HotelQueries } from "../../src/app/hotels/hotel-queries.js";
import { PolicyOverrides } from "../../src/app/manual-review/policy-overrides.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import { convert } from "../../src/domain/money.js";
import { casesOf } from "../cases/cases.js";
import type { ModuleContext } from "../module.js";
import { hotelsOf } from "./hotels.js";

/** The hotel and allocation use cases of one running platform. */
export interface Allocation {
  catalog: HotelCatalogIndex;
  hotels: HotelQueries;
  contracts: ContractBook;
  waves: AllocationWaves;
  reads: WaveReads;
  overrides: WaveOverrides;
  triggers: AllocationTriggers;
  intake: IntakeDemand;
}

const built = new WeakMap<ModuleContext, Allocation>();

/** The same instances for the routes, the event handlers and the start-up of one platform. */
export function allocationOf(context: ModuleContext): Allocation {
  let allocation = built.get(context);
  if (!allocation) {
    allocation = build(context);
    built.set(context, allocation);
  }
  return allocation;
}

function build(context: ModuleContext): Allocation {
  const { runtime, audit, directory } = context;
  const { actors, documents, bus, clock } = runtime;
  const { search, exchangeRates } = hotelsOf(context);
  const policies = new PolicyIndex(documents);
  const catalog = new HotelCatalogIndex(documents);
  const hotels = new HotelQueries({ directory, search, catalog });
  const contracts = new ContractBook({
    store: documents,
    catalog,
    audit,
    clock,
    airportsOf: async (tenant) => (await hotels.airportsOf(tenant)).map((a) => a.code),
    convertible: (currency) =>
      convert({ amountMinor: 1, currency }, exchangeRates.base, exchangeRates) !== undefined,
  });
  const waves = new AllocationWaves({
    actors,
    documents,
    bus,
    clock,
    directory,
    policies,
    search,
    exchangeRates,
    contracts,
    catalog,
    cases: casesOf(context).status,
    overrides: new PolicyOverrides(documents, clock),
  });
  const reads = new WaveReads(actors, documents);
  return {
    catalog,
    hotels,
    contracts,
    waves,
    reads,
    overrides: new WaveOverrides({ actors, documents, audit, clock, reads }),
    triggers: new AllocationTriggers({ actors, documents, policies, waves }),
    intake: new IntakeDemand(
      actors,
      new DemandAdministration(actors, policies, new DemandIndex(documents), audit),
    ),
  };
}
