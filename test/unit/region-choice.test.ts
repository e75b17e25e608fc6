import { describe, expect, it } from "vitest";
import { chooseRegion, type Region } from "../../services/region-router/region-choice.js";
import { loadRouterSettings } from "../../services/region-router/router-settings.js";

const regions: Region[] = [
  { name: "na", url: "http://na", location: { lat: 39.04, lon: -77.49 } },
  { name: "eu", url: "http://eu", location: { lat: 50.11, lon: 8.68 } },
  { name: "sa", url: "http://sa", location: { lat: -23.55, lon: -46.63 } },
];
const lisbon = { lat: 38.72, lon: -9.14 };
const santiago = { lat: -33.45, lon: -70.67 };
const all = () => true;

describe("choosing a region", () => {
  it("takes the healthy region nearest to the router", () => {
    expect(chooseRegion(regions, all, lisbon, undefined)?.name).toBe("eu");
    expect(chooseRegion(regions, all, santiago, undefined)?.name).toBe("sa");
    expect(chooseRegion(regions, (name) => name !== "eu", lisbon, undefined)?.name).toBe("na");
  });

  it("stays on the current region while it is healthy, even when another is nearer", () => {
    expect(chooseRegion(regions, all, lisbon, "sa")?.name).toBe("sa");
    expect(chooseRegion(regions, (name) => name !== "sa", lisbon, "sa")?.name).toBe("eu");
  });

  it("finds none when no region of the tenant is healthy", () => {
    expect(chooseRegion(regions, () => false, lisbon, "eu")).toBeUndefined();
  });
});

describe("router settings", () => {
  it("reads regions, hosts and the identity region", () => {
    const settings = loadRouterSettings({
      ROUTER_REGIONS: "na=http://10.0.0.1:8080/@39.04,-77.49;eu=http://10.0.0.2:8080@50.11,8.68",
      ROUTER_HOSTS: "ZX.api.example=na,eu;*=eu",
      ROUTER_LOCATION: "38.72,-9.14",
      ROUTER_IDENTITY_REGION: "na",
    });
    expect(settings.regions).toEqual([
      { name: "na", url: "http://10.0.0.1:8080", location: { lat: 39.04, lon: -77.49 } },
      { name: "eu", url: "http://10.0.0.2:8080", location: { lat: 50.11, lon: 8.68 } },
    ]);
    expect(settings.hosts.get("zx.api.example")).toEqual(["na", "eu"]);
    expect(settings.hosts.get("*")).toEqual(["eu"]);
    expect(settings.identityRegion).toBe("na");
  });

  it("refuses a host served by a region it does not know, and malformed locations", () => {
    expect(() => loadRouterSettings({ ROUTER_REGIONS: "na=http://a@1,2", ROUTER_HOSTS: "x=eu" })).toThrow(
      /unknown region eu/,
    );
    expect(() => loadRouterSettings({ ROUTER_REGIONS: "na=http://a@north", ROUTER_HOSTS: "x=na" })).toThrow(
      /lat,lon/,
    );
    expect(() => loadRouterSettings({ ROUTER_HOSTS: "x=na" })).toThrow(/ROUTER_REGIONS is required/);
  });
});
