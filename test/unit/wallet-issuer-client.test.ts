/**
 * The wallet issuer client against the simulated issuer (spec 5.6, 7): OAuth client credentials
 * with the token cached until 60 s before it expires and one forced refresh on a 401, over the
 * in-process transport and over HTTP (the simulator's routes as the vendor-sim app serves them),
 * and its failures classified as issuance needs them.
 */
import type { Server } from "node:http";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WalletIssuerSimulator } from "../../services/vendor-sim/wallet-issuer.js";
import { walletIssuerRoutes } from "../../services/vendor-sim/wallet-issuer-app.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { httpTransport } from "../../src/vendors/http-transport.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import { VendorError } from "../../src/vendors/vendor-error.js";
import { WalletIssuerClient } from "../../src/vendors/wallet-issuer-client.js";

const CLIENT = { clientId: "client-zx", clientSecret: "secret-zx" };

function simulator(clock: ManualClock): WalletIssuerSimulator {
  return new WalletIssuerSimulator([{ ...CLIENT, fundingPool: 10_000, webhookSecret: "hook" }], clock, {
    publicUrl: "https://issuer.example",
  });
}

/** A client talking to the simulator in process, on a manual clock. */
function inProcess() {
  const clock = new ManualClock("2026-11-21T20:00:00Z");
  const sim = simulator(clock);
  const client = new WalletIssuerClient({
    vendor: sim.id,
    transport: inProcessTransport(sim),
    credentials: CLIENT,
    clock,
  });
  return { clock, sim, client };
}

const issue = (client: WalletIssuerClient, reference: string, amount = 1_000) =>
  client.issueCard({ reference, amount, currency: "EUR", initialLoad: 250 });

describe("the wallet issuer client", () => {
  it("reuses its token until 60 s before it expires, then asks for a new one", async () => {
    const { clock, sim, client } = inProcess();
    await issue(client, "r1");
    await issue(client, "r2");
    expect(sim.tokens.issuedCount()).toBe(1);
    await clock.advance(29 * 60_000);
    await issue(client, "r3");
    expect(sim.tokens.issuedCount()).toBe(2);
  });

  it("refreshes once on a 401 and goes on; a second 401 is a permanent HTTP_401", async () => {
    const { sim, client } = inProcess();
    await issue(client, "r1");
    sim.revokeTokens();
    await expect(issue(client, "r2")).resolves.toHaveProperty("issuerCardId");
    sim.failNext("unauthorized", 2);
    const refused = await issue(client, "r3").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(VendorError);
    expect(refused).toMatchObject({ vendorCode: "HTTP_401", httpStatus: 401, retryable: false });
  });

  it("classifies 5xx as transient, 403 and an exhausted pool as permanent", async () => {
    const { sim, client } = inProcess();
    sim.failNext("server-error");
    expect(await issue(client, "r1").catch((e: VendorError) => [e.vendorCode, e.retryable])).toEqual([
      "HTTP_503",
      true,
    ]);
    sim.failNext("forbidden");
    expect(await issue(client, "r1").catch((e: VendorError) => [e.vendorCode, e.retryable])).toEqual([
      "HTTP_403",
      false,
    ]);
    expect(
      await issue(client, "r2", 1_000_000).catch((e: VendorError) => [e.vendorCode, e.retryable]),
    ).toEqual(["FUNDING_POOL_EXHAUSTED", false]);
  });

  it("gets the same card for the same reference, loads a drop once, returns the unused balance on cancel", async () => {
    const { sim, client } = inProcess();
    const { issuerCardId } = await issue(client, "r1");
    expect(await issue(client, "r1")).toEqual({ issuerCardId });
    expect(sim.fundingPool(CLIENT.clientId)).toBe(9_000);
    await client.loadCard(issuerCardId, { reference: "r1.noon", amount: 350, currency: "EUR" });
    await client.loadCard(issuerCardId, { reference: "r1.noon", amount: 350, currency: "EUR" });
    const auth = await sim.authorize(issuerCardId, 100, "Cafe");
    await sim.capture(issuerCardId, auth);
    expect(await client.cardRecord(issuerCardId)).toMatchObject({
      status: "LOADED",
      currentBalance: 500,
      holds: {},
    });
    expect(await client.cancelCard(issuerCardId, "LOST")).toEqual({ returnedToPool: 900 });
    expect(await client.cancelCard(issuerCardId, "LOST")).toEqual({ returnedToPool: 900 });
    expect(sim.fundingPool(CLIENT.clientId)).toBe(9_900);
  });
});

describe("the simulated issuer over HTTP (vendor-sim app)", () => {
  let server: Server;
  let base: string;
  let sim: WalletIssuerSimulator;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    sim = simulator(clock);
    const app = new Koa();
    app.use(walletIssuerRoutes(sim));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/${sim.id}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("issues with client credentials in a Basic header, refuses a wrong secret, opens a reveal session", async () => {
    const client = new WalletIssuerClient({
      vendor: sim.id,
      transport: httpTransport(base),
      credentials: CLIENT,
      clock,
    });
    const { issuerCardId } = await issue(client, "http-1");
    const reveal = await client.revealSession(issuerCardId);
    expect(reveal.url).toMatch(/^https:\/\/issuer\.example\/reveal\/[0-9a-f]{32}$/);
    const wrong = new WalletIssuerClient({
      vendor: sim.id,
      transport: httpTransport(base),
      credentials: { ...CLIENT, clientSecret: "nope" },
      clock,
    });
    await expect(issue(wrong, "http-2")).rejects.toMatchObject({ httpStatus: 401, retryable: false });
    const fault = await fetch(`${base}/_sim/fail-next`, {
      method: "POST",
      body: JSON.stringify({ fault: "server-error" }),
    });
    expect(fault.status).toBe(204);
    await expect(issue(client, "http-3")).rejects.toMatchObject({ vendorCode: "HTTP_503", retryable: true });
  });
});
