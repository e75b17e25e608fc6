import { describe, expect, it } from "vitest";
import { waveAddress, waveUrnFor } from "../../src/domain/allocation/wave-addresses.js";
import { demandAddress, demandUrn } from "../../src/domain/demand-addresses.js";
import { policyAddress, policyUrn } from "../../src/domain/policy/policy-addresses.js";

describe("URNs of things numbered within their actor", () => {
  it("carry the actor id and the number, and give them back", () => {
    expect(waveUrnFor("c-1", 2)).toBe("urn:wave:c-1.2");
    expect(waveAddress("urn:wave:c-1.2")).toEqual({ caseId: "c-1", number: 2 });
    expect(demandUrn("c-1", 3)).toBe("urn:demand:c-1.3");
    expect(demandAddress("urn:demand:c-1.3")).toEqual({ caseId: "c-1", number: 3 });
    const contextId = "0123456789abcdef01234567";
    expect(policyUrn(contextId, 1)).toBe(`urn:policy:${contextId}.1`);
    expect(policyAddress(`urn:policy:${contextId}.1`)).toEqual({ contextId, number: 1 });
  });

  it("find nothing for a URN none can have", () => {
    expect(waveAddress("urn:demand:c-1.2")).toBeUndefined();
    expect(waveAddress("urn:wave:c-1.0")).toBeUndefined();
    expect(waveAddress("urn:wave:c-1")).toBeUndefined();
    expect(waveAddress("urn:wave:c_1.2")).toBeUndefined();
    expect(waveAddress("urn:wave:c-1.2:status:x")).toBeUndefined();
    expect(demandAddress("urn:demand:c-1.1234567890")).toBeUndefined();
    expect(policyAddress("urn:policy:c-1.1")).toBeUndefined();
    expect(policyAddress("urn:policy:0123456789ABCDEF01234567.1")).toBeUndefined();
  });
});
