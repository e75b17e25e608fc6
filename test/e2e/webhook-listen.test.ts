import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "../support/platform.js";
import { opensslSignature } from "../support/webhook-receiver.js";

/** `npm run webhook:listen`, the integrators' receiver, as they would run it. */
let listener: ChildProcess;
let output = "";
let url: string;
const SECRET = "whsec_listen-test";

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  listener = spawn(process.execPath, ["--import", "tsx", "scripts/webhook-listen.ts"], {
    env: { ...process.env, WEBHOOK_SECRET: `whsec_other,${SECRET}`, PORT: String(port) },
  });
  listener.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await vi.waitFor(
    () => {
      if (!output.includes("Listening for webhooks")) throw new Error("not listening yet");
    },
    { timeout: 20_000, interval: 50 },
  );
}, 30_000);

afterAll(() => {
  listener?.kill();
});

const body = JSON.stringify({
  type: "case.opened",
  occurred_at: "2026-11-27T10:00:00.000Z",
  tenant: "urn:airline:ZX",
  case_urn: "urn:case:listen-1",
  correlation_urn: "urn:trace:listen-1",
  data: { caseUrn: "urn:case:listen-1" },
});

function deliver(signature: string, timestamp: string, eventUrn = "urn:event:listen-1") {
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Svc-Signature": signature,
      "X-Svc-Signature-Timestamp": timestamp,
      "X-Svc-Event-Urn": eventUrn,
    },
    body,
  });
}

describe("npm run webhook:listen", () => {
  const now = () => String(Math.floor(Date.now() / 1000));

  it("takes a delivery signed with one of its secrets and prints the event", async () => {
    const timestamp = now();
    expect((await deliver(opensslSignature(SECRET, timestamp, body), timestamp)).status).toBe(204);
    await expect.poll(() => output).toContain("case.opened urn:event:listen-1 urn:case:listen-1");
  });

  it("answers 401 to a bad signature and to a timestamp more than 5 minutes off", async () => {
    const timestamp = now();
    expect((await deliver(opensslSignature("whsec_wrong", timestamp, body), timestamp)).status).toBe(401);
    const stale = String(Number(timestamp) - 301);
    expect((await deliver(opensslSignature(SECRET, stale, body), stale)).status).toBe(401);
    // Past the bound by a minute: the check runs a moment after `timestamp` was taken, and a slow
    // run would otherwise bring one second past the bound back inside it.
    const ahead = String(Number(timestamp) + 360);
    expect((await deliver(opensslSignature(SECRET, ahead, body), ahead)).status).toBe(401);
  });

  it("accepts a rotation's two signatures and marks a repeated event URN as a repeat", async () => {
    const timestamp = now();
    const both = `${opensslSignature("whsec_new", timestamp, body)},${opensslSignature(SECRET, timestamp, body)}`;
    expect((await deliver(both, timestamp)).status).toBe(204);
    await expect
      .poll(() => output)
      .toContain("(repeat) 2026-11-27T10:00:00.000Z case.opened urn:event:listen-1");
  });
});
