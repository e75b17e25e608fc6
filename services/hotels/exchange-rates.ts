import type { ExchangeRates } from "../../src/domain/money.js";
import { SIMULATOR_EXCHANGE_RATES } from "../vendor-sim/simulators.js";

/**
 * The simulators' table, plus the currencies policies are written in that no simulator sells in
 * (a policy's currency follows its airport's country: BRL at GRU). A fixed table: the demo has no
 * rate feed, and a live deployment would pass its own.
 */
export const PLATFORM_EXCHANGE_RATES: ExchangeRates = {
  base: SIMULATOR_EXCHANGE_RATES.base,
  perBase: { ...SIMULATOR_EXCHANGE_RATES.perBase, BRL: 5.2 },
};
