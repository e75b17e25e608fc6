import { demoPartnerRegistrations } from "../../src/demo/demo-partners.js";
import { createServer } from "node:net";
import { type Logger, pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { demoCredentials, type DemoCredentials } from "../../src/demo/demo-credentials.js";
import { defaultAudiences } from "../../src/identity/audiences.js";
import { totpCode } from "../../src/identity/totp.js";
import { type Platform, startPlatform } from "../../src/main.js";
import type { Clock } from "../../src/runtime/clock.js";

/**
 * Where this test worker's ports come from: below Linux's ephemeral range (32768-60999), from
 * which the system takes ports for `listen(0)` and for outgoing connections, so a port found free
 * here is not taken by one of those before the test binds it. Each worker starts at a random place.
 */
const PORTS = { first: 10_000, last: 32_000 };
let nextPort = PORTS.first + Math.floor(Math.random() * (PORTS.last - PORTS.first));

/** A port nothing listens on now, for a server the test starts next. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = nextPort;
    nextPort = nextPort >= PORTS.last ? PORTS.first : nextPort + 1;
    if (await canListen(port)) return port;
  }
  throw new Error("No free port found for the test");
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export interface TestPlatform {
  platform: Platform;
  base: string;
  passengerBase: string;
  credentials: DemoCredentials;
  /** An operator access token for a demo user (TOTP added for roles that need it). */
  operatorToken(username: string): Promise<string>;
  /** A partner access token for a demo registration. */
  partnerToken(clientId: string): Promise<string>;
  /** fetch against the operator host with a bearer token and JSON body. */
  call(
    method: string,
    path: string,
    token?: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The whole service in this process on free ports (embedded runtime, memory stores), with the
 * demo directory: what `npm start` runs, for end-to-end tests over real HTTP.
 */
export async function startTestPlatform(
  options: { clock?: Clock; env?: Record<string, string>; logger?: Logger } = {},
): Promise<TestPlatform> {
  const [port, passengerPort] = [await freePort(), await freePort()];
  const config = loadConfig({
    PORT: String(port),
    PASSENGER_PORT: String(passengerPort),
    RUNTIME: "embedded",
    LOG_LEVEL: "silent",
    ...options.env,
  });
  const platform = await startPlatform(config, {
    logger: options.logger ?? pino({ level: "silent" }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const base = `http://localhost:${port}`;
  const passengerBase = `http://localhost:${passengerPort}`;
  const audiences = defaultAudiences(config.publicBaseUrl, config.passengerBaseUrl);
  const credentials = demoCredentials({
    baseUrl: config.publicBaseUrl,
    passengerBaseUrl: config.passengerBaseUrl,
    authUrl: `${config.publicBaseUrl}/auth`,
    audiences,
    now: Date.now(),
  });
  const users = credentials.tenants.flatMap((t) => t.users);
  const partners = credentials.tenants.flatMap((t) => t.partners);

  const token = (body: Record<string, string>) => requestToken(base, body);

  return {
    platform,
    base,
    passengerBase,
    credentials,
    operatorToken: async (username) => {
      const user = users.find((u) => u.username === username);
      if (!user) throw new Error(`no demo user ${username}`);
      return token({
        grant_type: "password",
        username,
        password: user.password,
        audience: audiences.operator,
        ...(user.totpSecret ? { otp: totpCode(user.totpSecret, Date.now()) } : {}),
      });
    },
    partnerToken: async (clientId) => {
      const partner = partners.find((p) => p.clientId === clientId);
      if (!partner) throw new Error(`no demo partner ${clientId}`);
      return token({
        grant_type: "client_credentials",
        client_id: clientId,
        client_secret: partner.clientSecret,
        audience: audiences.partner,
      });
    },
    call: (method, path, bearer, body, headers = {}) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
          ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    close: () => platform.close(),
  };
}

/** An access token from the embedded identity provider at `base` (its token endpoint, JSON body). */
/**
 * A partner token of Zephyr Air's SkyHub registration (src/demo/demo-partners.ts) from the service
 * at `base`, for benches and tests that start the service without a TestPlatform.
 */
export function skyhubToken(base: string): Promise<string> {
  const skyhub = demoPartnerRegistrations(Date.now()).find((r) => r.clientId === "skyhub-zx")!;
  return requestToken(base, {
    grant_type: "client_credentials",
    client_id: skyhub.clientId,
    client_secret: skyhub.clientSecret,
    audience: `${base}/partner/v1`,
  });
}

export async function requestToken(base: string, body: Record<string, string>): Promise<string> {
  const response = await fetch(`${base}/auth/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { access_token?: string };
  if (!response.ok || !json.access_token) throw new Error(`token request failed: ${JSON.stringify(json)}`);
  return json.access_token;
}
