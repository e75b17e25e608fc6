/**
 * The platform plus the operator real-time channel on a server of its own, authenticating with
 * the same authenticator the HTTP routes use, and a small `ws` client that records what it gets.
 * Shared by the sub-case and realtime end-to-end tests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { WebSocket } from "ws";
import { CaseActor } from "../../actors/CaseActor.js";
import { SubCaseIndex } from "../../src/app/sub-cases/sub-case-index.js";
import { caseIdFor, type PassengerGroup } from "../../src/domain/case.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { createAuthenticator } from "../../src/http/auth/authenticator.js";
import { EmergencyRevocationList } from "../../src/http/auth/emergency-revocations.js";
import { defaultAudiences } from "../../src/identity/audiences.js";
import { CounterStoreRevokedGrants } from "../../src/http/auth/revoked-grants.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { operatorTokenAuthentication } from "../../services/realtime/operator-token-authentication.js";
import { REALTIME_PATH } from "../../services/realtime/protocol.js";
import { attachRealtime, type RealtimeChannel } from "../../services/realtime/realtime-channel.js";
import { RealtimeHub } from "../../services/realtime/realtime-hub.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

export interface ReceivedClose {
  code: number;
  reason: string;
}

/** A real `ws` client that keeps every JSON message it receives, in order. */
export class ChannelClient {
  readonly messages: Array<Record<string, any>> = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<ReceivedClose>;
  private readonly listeners = new Set<() => void>();

  constructor(readonly socket: WebSocket) {
    this.opened = new Promise((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    this.closed = new Promise((resolve) =>
      socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on("message", (data) => {
      this.messages.push(JSON.parse(data.toString()));
      for (const listener of this.listeners) listener();
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first message (from `after` on) that matches; fails the test after 5 s of real time. */
  next(match: (message: Record<string, any>) => boolean, after = 0): Promise<Record<string, any>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.slice(after).find(match);
        if (!found) return false;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`no matching message; got ${JSON.stringify(this.messages)}`));
      }, 5_000);
      if (!check()) this.listeners.add(check);
    });
  }

  events(name: string): Array<Record<string, any>> {
    return this.messages.filter((m) => m.type === "event" && m.event === name);
  }
}

/** The demo operators the sub-case and realtime tests act as. */
const OPERATORS = [
  "operator@zx.demo",
  "operator.jfk@zx.demo",
  "supervisor@zx.demo",
  "admin@zx.demo",
  "finance@zx.demo",
  "operator@vq.demo",
];

export interface RealtimeFixture {
  t: TestPlatform;
  /** An access token of each demo operator, by user name. */
  tokens: Record<string, string>;
  clock: ManualClock;
  hub: RealtimeHub;
  channel: RealtimeChannel;
  index: SubCaseIndex;
  /** A raw connection; `protocols` for the handshake form. */
  connect(protocols?: string[]): Promise<ChannelClient>;
  /** Connects and authenticates with the first-message form; resolves after `ready`. */
  connectAs(token: string): Promise<ChannelClient>;
  /** Cuts every connection the tests opened and still hold (after a failed test, say). */
  disconnectAll(): Promise<void>;
  /** Opens a case straight on its actor and waits until its sub-cases are indexed. */
  openCase(options: {
    tenant?: string;
    externalEventId: string;
    origin?: string;
    groups?: string[];
  }): Promise<{ caseUrn: string; caseId: string; subCaseUrns: string[] }>;
  close(): Promise<void>;
}

export async function startRealtimeFixture(): Promise<RealtimeFixture> {
  const clock = new ManualClock(Date.now());
  // Many writes per route in one file, and a clock that only moves when told: lift the rate limits.
  // The channel is checked against the events a test causes itself: no automatic demand, waves or bookings.
  const t = await startTestPlatform({
    clock,
    env: { RATE_LIMIT_SCALE: "20", DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" },
  });
  // Tokens first: the TOTP codes of the demo users are computed from the wall clock.
  const tokens: Record<string, string> = {};
  for (const user of OPERATORS) tokens[user] = await t.operatorToken(user);
  const { runtime, config } = t.platform;
  const authUrl = `${config.publicBaseUrl}/auth`;
  const audiences = defaultAudiences(config.publicBaseUrl, config.passengerBaseUrl);
  const authenticator = createAuthenticator({
    operator: { issuer: authUrl, audience: audiences.operator, jwksUri: `${authUrl}/jwks` },
    partner: { issuer: authUrl, audience: audiences.partner, jwksUri: `${authUrl}/jwks` },
    passenger: { issuer: "urn:unused", audience: audiences.passenger, jwks: { keys: [] } },
    partnerRegistrations: async () => undefined,
    revocations: new EmergencyRevocationList(runtime.documents, clock),
    revokedGrants: new CounterStoreRevokedGrants(runtime.counters),
    clock,
  });
  const server: Server = createServer((_request, response) => {
    response.statusCode = 404;
    response.end();
  });
  const hub = t.platform.container.resolve(RealtimeHub);
  const channel = attachRealtime(server, {
    authenticate: operatorTokenAuthentication(authenticator),
    runtime,
    hub,
    clock,
    logger: pino({ level: "silent" }),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}${REALTIME_PATH}`;
  const index = new SubCaseIndex(runtime.documents);

  const clients = new Set<ChannelClient>();
  const connect = async (protocols?: string[]) => {
    const client = new ChannelClient(new WebSocket(url, protocols));
    clients.add(client);
    void client.closed.then(() => clients.delete(client));
    await client.opened;
    return client;
  };

  return {
    t,
    tokens,
    clock,
    hub,
    channel,
    index,
    connect,
    disconnectAll: async () => {
      const open = [...clients];
      for (const client of open) client.socket.terminate();
      await Promise.all(open.map((client) => client.closed));
    },
    connectAs: async (token) => {
      const client = await connect();
      client.send({ type: "auth", token });
      await client.next((m) => m.type === "ready");
      return client;
    },
    openCase: async ({
      tenant = "urn:airline:ZX",
      externalEventId,
      origin = "BOS",
      groups = ["ABC123", "XYZ789"],
    }) => {
      const caseId = caseIdFor(tenant, externalEventId);
      const passengerGroups: PassengerGroup[] = groups.map((id) => ({
        id,
        pnr: id,
        passengers: [{ id: `${id}-p1`, lastName: "Rivera", tier: "ECONOMY" }],
      }));
      const { snapshot } = await runtime.actors.invoke(CaseActor, caseId, "open", {
        tenant,
        externalEventId,
        flight: { number: "ZX100", origin, destination: "LHR", scheduledDeparture: "2026-11-21T22:00:00Z" },
        passengerGroups,
        openedBy: "urn:user:test",
        correlationUrn: "urn:trace:test",
        intake: { source: "operator" },
      });
      const caseUrn = snapshot.case.urn;
      const subCaseUrns = groups.map((group) => subCaseUrnFor(caseUrn, group));
      // The sub-cases are made by the case.opened subscription, after the actor's turn.
      for (let attempt = 0; (await index.activeOfCase(caseUrn)).length < groups.length; attempt++) {
        if (attempt > 500) throw new Error(`the sub-cases of ${caseUrn} never appeared`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { caseUrn, caseId, subCaseUrns };
    },
    close: async () => {
      await channel.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}
