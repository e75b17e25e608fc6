import { BlockList, isIP } from "node:net";
import type { Coordinates } from "../domain/geo.js";
import { isImpossibleTravel, type RiskSignals, type SignInPlace } from "../domain/second-factors.js";
import type { SignInHistory } from "../app/operator-factors/sign-in-history.js";

/**
 * The tables the step-up risk signals read (spec 5.1), as configured: MFA_HIGH_RISK_ADDRESSES,
 * MFA_ADDRESS_LOCATIONS and MFA_MAX_TRAVEL_KMH.
 */
export interface SignInRiskSettings {
  /** CIDR ranges (IPv4 or IPv6) whose sign-ins always step up. */
  highRiskAddresses: readonly string[];
  /** CIDR range -> where its addresses are; the first range (in the given order) that holds an address wins. */
  addressLocations: Readonly<Record<string, Coordinates>>;
  /** Faster than this between two located sign-ins is impossible travel. */
  maxTravelKmPerHour: number;
}

export const NO_RISK_TABLES: SignInRiskSettings = {
  highRiskAddresses: [],
  addressLocations: {},
  maxTravelKmPerHour: 1000,
};

/** What is known of a sign-in attempt before the second factor. */
export interface SignInAttempt {
  address: string;
  /** The browser's device cookie; absent for clients that keep none (scripts on the password grant). */
  device?: string;
  at: number;
}

export interface SignInRisk {
  signals: RiskSignals;
  /** Where the attempt comes from, when the location table knows its address. */
  place?: SignInPlace;
}

/** Parses the settings once (a bad range fails at start-up, not at the first sign-in). */
export function signInRiskAssessor(settings: SignInRiskSettings) {
  const highRisk = blockListOf(settings.highRiskAddresses, "MFA_HIGH_RISK_ADDRESSES");
  const locations = Object.entries(settings.addressLocations).map(([cidr, where]) => {
    if (!Number.isFinite(where?.lat) || !Number.isFinite(where?.lon))
      throw new Error(`MFA_ADDRESS_LOCATIONS: ${cidr} needs numeric lat and lon`);
    return { range: blockListOf([cidr], "MFA_ADDRESS_LOCATIONS"), where: { lat: where.lat, lon: where.lon } };
  });

  return (attempt: SignInAttempt, history: SignInHistory | undefined): SignInRisk => {
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; the tables name it a.b.c.d.
    const address = attempt.address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
    const family = familyOf(address);
    const where = family ? locations.find((l) => l.range.check(address, family))?.where : undefined;
    const place = where ? { at: attempt.at, where } : undefined;
    // The first device a user signs in from is trusted (there is nothing to compare it with).
    const knownDevices = history?.devices ?? [];
    return {
      signals: {
        newDevice:
          attempt.device !== undefined && knownDevices.length > 0 && !knownDevices.includes(attempt.device),
        highRiskAddress: family !== undefined && highRisk.check(address, family),
        impossibleTravel:
          place !== undefined &&
          history?.lastPlace !== undefined &&
          isImpossibleTravel(history.lastPlace, place, settings.maxTravelKmPerHour),
      },
      ...(place ? { place } : {}),
    };
  };
}

export type SignInRiskAssessor = ReturnType<typeof signInRiskAssessor>;

function familyOf(address: string): "ipv4" | "ipv6" | undefined {
  const version = isIP(address);
  return version === 4 ? "ipv4" : version === 6 ? "ipv6" : undefined;
}

function blockListOf(cidrs: readonly string[], setting: string): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = "", bits] = cidr.trim().split("/");
    const family = familyOf(address);
    const prefix = bits === undefined ? (family === "ipv6" ? 128 : 32) : Number(bits);
    if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === "ipv6" ? 128 : 32))
      throw new Error(`${setting}: "${cidr}" is not an address range (CIDR)`);
    list.addSubnet(address, prefix, family);
  }
  return list;
}
