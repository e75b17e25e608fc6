import { type DependencyContainer, instanceCachingFactory } from "tsyringe";
import { AllocationTriggers } from "../../src/app/allocation/allocation-triggers.js";
import { AllocationWaves } from "../../src/app/allocation/allocation-waves.js";
import { IntakeDemand } from "../../src/app/allocation/intake-demand.js";
import { WaveOverrides } from "../../src/app/allocation/wave-override.js";
import { WaveReads } from "../../src/app/allocation/wave-reads.js";
import { CaseStatusCommands } from "../../src/app/cases/case-status.js";
import { HotelSearch } from "../../src/app/hotel-search.js";
import { ContractBook } from "../../src/app/hotels/contracts.js";
import { HotelCatalogIndex } from "../../src/app/hotels/hotel-catalog.js";
import { HotelQueries } from "../../src/app/hotels/hotel-queries.js";
import { PolicyOverrides } from "../../src/app/policies/policy-overrides.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import { convert, type ExchangeRates } from "../../src/domain/money.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { incarnationOf, registerSingletons } from "../module.js";

/** The hotel and allocation use cases, as their routes, event handlers and start-up receive them. */
export interface AllocationUseCases {
  catalog: HotelCatalogIndex;
  hotels: HotelQueries;
  contracts: ContractBook;
  waves: AllocationWaves;
  reads: WaveReads;
  overrides: WaveOverrides;
  triggers: AllocationTriggers;
  intake: IntakeDemand;
}

/**
 * The search, the contracts and the waves take settings and callbacks beside their ports, so they
 * are built by factories (one instance per container); the others are `@injectable` classes.
 */
export function registerAllocationUseCases(container: DependencyContainer): void {
  registerSingletons(container, [
    HotelCatalogIndex,
    HotelQueries,
    WaveReads,
    WaveOverrides,
    AllocationTriggers,
    IntakeDemand,
  ]);
  container.register(HotelSearch, {
    useFactory: instanceCachingFactory(
      (c) =>
        new HotelSearch(c.resolve(TOKENS.vendors), c.resolve(TOKENS.clock), {
          exchangeRates: c.resolve(TOKENS.exchangeRates),
        }),
    ),
  });
  container.register(ContractBook, {
    useFactory: instanceCachingFactory((c) => {
      const hotels = c.resolve(HotelQueries);
      const exchangeRates = c.resolve<ExchangeRates>(TOKENS.exchangeRates);
      return new ContractBook({
        store: c.resolve(TOKENS.documents),
        catalog: c.resolve(HotelCatalogIndex),
        audit: c.resolve(TOKENS.audit),
        clock: c.resolve(TOKENS.clock),
        airportsOf: async (tenant) => (await hotels.airportsOf(tenant)).map((a) => a.code),
        convertible: (currency) =>
          convert({ amountMinor: 1, currency }, exchangeRates.base, exchangeRates) !== undefined,
      });
    }),
  });
  container.register(AllocationWaves, {
    useFactory: instanceCachingFactory(
      (c) =>
        new AllocationWaves({
          actors: c.resolve(TOKENS.actors),
          documents: c.resolve(TOKENS.documents),
          bus: c.resolve(TOKENS.bus),
          clock: c.resolve(TOKENS.clock),
          directory: c.resolve(TOKENS.directory),
          policies: c.resolve(PolicyIndex),
          search: c.resolve(HotelSearch),
          exchangeRates: c.resolve(TOKENS.exchangeRates),
          contracts: c.resolve(ContractBook),
          catalog: c.resolve(HotelCatalogIndex),
          cases: c.resolve(CaseStatusCommands),
          overrides: c.resolve(PolicyOverrides),
          incarnation: incarnationOf(c),
        }),
    ),
  });
}

/** The instances registered in `container` by `registerAllocationUseCases`. */
export function allocationUseCases(container: DependencyContainer): AllocationUseCases {
  return {
    catalog: container.resolve(HotelCatalogIndex),
    hotels: container.resolve(HotelQueries),
    contracts: container.resolve(ContractBook),
    waves: container.resolve(AllocationWaves),
    reads: container.resolve(WaveReads),
    overrides: container.resolve(WaveOverrides),
    triggers: container.resolve(AllocationTriggers),
    intake: container.resolve(IntakeDemand),
  };
}
