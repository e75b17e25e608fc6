import { container, type DependencyContainer } from "tsyringe";
import type { VendorSimulators } from "../../services/vendor-sim/simulators.js";
import { HotelSearch } from "../../src/app/hotel-search.js";
import { MODULES, type Platform } from "../../src/main.js";
import { TOKENS } from "../../src/runtime/tokens.js";

/**
 * A platform container for a test that builds its runtime by hand: the adapters it gives under
 * their tokens, and every module's use cases (resolved lazily, so only what a test uses needs its
 * adapters).
 */
export function moduleContainer(
  adapters: Partial<Record<keyof typeof TOKENS, unknown>>,
): DependencyContainer {
  const platform = container.createChildContainer();
  for (const [name, value] of Object.entries(adapters)) {
    platform.register(TOKENS[name as keyof typeof TOKENS], { useValue: value });
  }
  for (const module of MODULES) module.register?.(platform);
  return platform;
}

/** The vendor simulators the composition root chose for a platform (fault injection, catalog). */
export function simulatorsOf(platform: Pick<Platform, "container">): VendorSimulators {
  return platform.container.resolve<VendorSimulators>(TOKENS.vendorSimulators);
}

/** A platform's hotel search, with the offer cache its waves and routes share. */
export function hotelSearchOf(platform: Pick<Platform, "container">): HotelSearch {
  return platform.container.resolve(HotelSearch);
}
