import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CALLBACK_HEADERS, verifyCallbackSignature } from "../../src/domain/notification-callbacks.js";
import { httpTransport } from "../../src/vendors/http-transport.js";
import { providerChannel } from "../../services/notifications/provider-channel.js";
import {
  DEMO_MESSAGE_PROVIDERS,
  MessageProviderSimulators,
} from "../../services/vendor-sim/message-provider.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

/**
 * The notification providers as the distributed runtime reaches them: over HTTP, in the vendor-sim
 * app, calling back a URL of their own over HTTP with signed callbacks.
 */
let t: TestPlatform;
let receiver: Server;
let callbackUrl: string;
const received: { headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  t = await startTestPlatform({ env: { SERVICES: "vendor-sim" } });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      response.statusCode = 200;
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await t?.close();
});

function channel(id: "sms" | "messaging", apiKey = DEMO_MESSAGE_PROVIDERS[id].apiKey) {
  return providerChannel({ channel: id, transport: httpTransport(`${t.base}/${id}`), apiKey, callbackUrl });
}

const message = (to: string) => ({
  notificationUrn: "urn:notification:1",
  tenant: "urn:airline:ZX",
  to,
  subject: "s",
  text: "Your hotel: https://zx.example/?token=abc",
});

describe("the SMS and messaging simulators over HTTP", () => {
  it("take a message, then call back `delivered`, signed with the provider's secret", async () => {
    const { providerMessageId } = await channel("sms").send(message("+15550000001"));
    expect(providerMessageId).toMatch(/^sms-/);
    await vi.waitFor(() => expect(received.some((r) => r.body.includes(providerMessageId))).toBe(true));
    const callback = received.find((r) => r.body.includes(providerMessageId))!;
    expect(JSON.parse(callback.body)).toMatchObject({ messageId: providerMessageId, type: "delivered" });
    const check = (secret: string) =>
      verifyCallbackSignature(
        secret,
        callback.headers[CALLBACK_HEADERS.signature],
        callback.headers[CALLBACK_HEADERS.timestamp],
        callback.body,
        Date.now(),
      );
    expect(check(DEMO_MESSAGE_PROVIDERS.sms.callbackSecret)).toBe(true);
    expect(check(DEMO_MESSAGE_PROVIDERS.messaging.callbackSecret)).toBe(false);
    expect(callback.headers[CALLBACK_HEADERS.eventId]).toBe(JSON.parse(callback.body).eventId);
  });

  it("refuse a wrong API key, answer 503 when told to fail, 422 for an unreachable number", async () => {
    await expect(channel("messaging", "wrong").send(message("+15550000002"))).rejects.toThrow(/answered 401/);
    const control = (path: string, body: unknown) =>
      fetch(`${t.base}/messaging/_sim/${path}`, { method: "POST", body: JSON.stringify(body) });
    expect((await control("fail-next", { times: 1 })).status).toBe(204);
    await expect(channel("messaging").send(message("+15550000002"))).rejects.toThrow(/answered 503/);
    expect((await control("recipient", { to: "+15550000003", behaviour: "unreachable" })).status).toBe(204);
    await expect(channel("messaging").send(message("+15550000003"))).rejects.toThrow(/answered 422/);
    await expect(channel("messaging").send(message("+15550000002"))).resolves.toMatchObject({
      providerMessageId: expect.stringMatching(/^messaging-/),
    });
  });

  it("let a test or demo reply as the passenger, which calls back `replied` with the text", async () => {
    const { providerMessageId } = await channel("sms").send(message("+15550000004"));
    const reply = await fetch(`${t.base}/sms/_sim/reply`, {
      method: "POST",
      body: JSON.stringify({ messageId: providerMessageId, text: "STOP" }),
    });
    expect(reply.status).toBe(204);
    expect(received.map((r) => JSON.parse(r.body))).toContainEqual(
      expect.objectContaining({ messageId: providerMessageId, type: "replied", text: "STOP" }),
    );
    const unknown = await fetch(`${t.base}/sms/_sim/reply`, {
      method: "POST",
      body: JSON.stringify({ messageId: "sms-nope", text: "hi" }),
    });
    expect(unknown.status).toBe(404);
    expect(t.platform.container.resolve(MessageProviderSimulators).sms.message(providerMessageId)?.to).toBe(
      "+15550000004",
    );
  });

  it("leave the hotel vendors' paths to the hotel simulators", async () => {
    expect((await fetch(`${t.base}/vendor-z/_sim/hotel-full`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${t.base}/healthz`)).status).toBe(200);
  });
});
