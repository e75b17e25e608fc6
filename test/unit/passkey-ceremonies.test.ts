import { describe, expect, it } from "vitest";
import { OperatorPasskeys } from "../../src/app/operator-factors/operator-passkeys.js";
import {
  PasskeyCeremonies,
  PasskeyCeremonyError,
  relyingPartyOf,
} from "../../src/identity/passkey-ceremonies.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { storedPasskey } from "../support/operator-sign-in.js";

const ZX = "urn:airline:ZX";
const HOLDER = { userId: "zx-admin", tenant: ZX, username: "admin@zx.demo" };
const NOT_A_REGISTRATION = {
  id: "abc",
  rawId: "abc",
  type: "public-key",
  response: { clientDataJSON: "e30", attestationObject: "" },
  clientExtensionResults: {},
} as never;

function setup() {
  const clock = new ManualClock("2026-05-04T10:00:00Z");
  const documents = new MemoryDocumentStore();
  const passkeys = new OperatorPasskeys(documents);
  const ceremonies = new PasskeyCeremonies(
    relyingPartyOf("https://ops.example.com:8443/"),
    passkeys,
    documents,
    clock,
  );
  const enrolled = (userId: string, tenant = ZX) => passkeys.add(storedPasskey(userId, tenant, clock.now()));
  return { clock, passkeys, ceremonies, enrolled };
}

describe("passkey ceremonies (WebAuthn, spec 5.1)", () => {
  it("names the relying party by the public base URL: host as RP ID, scheme, host and port as origin", async () => {
    expect(relyingPartyOf("https://ops.example.com:8443/")).toMatchObject({
      id: "ops.example.com",
      origin: "https://ops.example.com:8443",
    });
    const { ceremonies, enrolled } = setup();
    await enrolled("zx-admin");
    const options = await ceremonies.registrationOptions(HOLDER);
    expect(options).toMatchObject({
      rp: { id: "ops.example.com" },
      user: { name: "admin@zx.demo" },
      attestation: "none",
      // The authenticator is told not to enrol a credential twice.
      excludeCredentials: [{ id: "credential-of-zx-admin", type: "public-key", transports: ["internal"] }],
    });
  });

  it("answers a challenge at most once, and only within five minutes", async () => {
    const { ceremonies, clock } = setup();
    await expect(ceremonies.register(HOLDER, NOT_A_REGISTRATION, "Laptop")).rejects.toThrow(
      /no passkey ceremony is in progress/,
    );
    await ceremonies.registrationOptions(HOLDER);
    await expect(ceremonies.register(HOLDER, NOT_A_REGISTRATION, "Laptop")).rejects.toThrow(
      PasskeyCeremonyError,
    );
    // The failed answer used the challenge up.
    await expect(ceremonies.register(HOLDER, NOT_A_REGISTRATION, "Laptop")).rejects.toThrow(
      /no passkey ceremony/,
    );
    await ceremonies.registrationOptions(HOLDER);
    await clock.advance(5 * 60 * 1000 + 1);
    await expect(ceremonies.register(HOLDER, NOT_A_REGISTRATION, "Laptop")).rejects.toThrow(/expired/);
  });

  it("offers only the user's own passkeys at sign-in, and refuses another user's or another tenant's", async () => {
    const { ceremonies, enrolled } = setup();
    await enrolled("zx-admin");
    await enrolled("zx-supervisor");
    await enrolled("zx-admin-elsewhere", "urn:airline:VQ");
    const options = await ceremonies.authenticationOptions("interaction-1", HOLDER);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual(["credential-of-zx-admin"]);
    await expect(
      ceremonies.authenticate("interaction-1", HOLDER, { id: "credential-of-zx-supervisor" } as never),
    ).rejects.toThrow(/not enrolled for this user/);
    await ceremonies.authenticationOptions("interaction-2", HOLDER);
    await expect(
      ceremonies.authenticate("interaction-2", HOLDER, { id: "credential-of-zx-admin-elsewhere" } as never),
    ).rejects.toThrow(/not enrolled for this user/);
  });

  it("lists, finds and removes passkeys per tenant and user", async () => {
    const { passkeys, enrolled } = setup();
    await enrolled("zx-admin");
    expect(await passkeys.add({ ...(await passkeys.list(ZX, "zx-admin"))[0]!, userId: "zx-other" })).toBe(
      false,
    );
    expect(await passkeys.remove("urn:airline:VQ", "zx-admin", "credential-of-zx-admin")).toBe(false);
    expect(await passkeys.remove(ZX, "zx-admin", "credential-of-zx-admin")).toBe(true);
    expect(await passkeys.list(ZX, "zx-admin")).toEqual([]);
  });
});
