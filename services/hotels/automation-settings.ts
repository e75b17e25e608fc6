import type { Config } from "../../src/config.js";

/**
 * What runs by itself so that a pushed disruption ends in reservations with nobody acting: INITIAL
 * demand on every new case, and (embedded runtime only) a demo policy at every demo airport. Both
 * are on unless the configuration turns them off (DEMAND_ON_INTAKE, DEMO_POLICIES); tests of demand
 * or policies written for an empty start turn them off.
 */
export interface AutomationSettings {
  demandOnIntake: boolean;
  seedDemoPolicies: boolean;
}

export function automationSettingsOf(config: Config): AutomationSettings {
  return { demandOnIntake: config.demandOnIntake, seedDemoPolicies: config.seedDemoPolicies };
}
