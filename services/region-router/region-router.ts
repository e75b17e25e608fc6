/**
 * The virtual host of multi-region tenants (spec part 1): a thin reverse proxy in front of the
 * regional instances. A request on a tenant's virtual host goes to the region chosen for it
 * (region-choice.ts), paths under /auth to the identity region; the answer carries the region in
 * `X-Served-Region`. When a region stops answering, the router takes it out at once and sends
 * the next request elsewhere; a request without a body (GET, HEAD, OPTIONS, DELETE) that could
 * not reach a region is sent to the next one straight away; one with a body is refused with a
 * 503 problem, for the client to send again (with the same Idempotency-Key: nothing is done twice).
 * WebSocket upgrades (the operator channel) are passed through the same way.
 */
import {
  type IncomingMessage,
  type Server,
  type ServerResponse,
  Agent,
  createServer,
  request,
} from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "pino";
import { ProblemError } from "../../src/http/errors.js";
import { DEFAULT_ERRORS_URL, PROBLEM_CONTENT_TYPE, problemBody } from "../../src/http/problem.js";
import { startTrace } from "../../src/http/tracing.js";
import { chooseRegion, type Region } from "./region-choice.js";
import { RegionHealth } from "./region-health.js";
import type { RouterSettings } from "./router-settings.js";

export const SERVED_REGION_HEADER = "X-Served-Region";

const IDENTITY_PATH = /^\/auth(\/|$)/;
const BODILESS_METHODS = new Set(["GET", "HEAD", "OPTIONS", "DELETE"]);
/** Hop-by-hop headers (RFC 9110 7.6.1): they describe one connection, not the message. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

export interface RunningRegionRouter {
  url: string;
  server: Server;
  health: RegionHealth;
  close(): Promise<void>;
}

export async function startRegionRouter(
  settings: RouterSettings,
  logger?: Logger,
): Promise<RunningRegionRouter> {
  const router = new RegionRouter(settings, logger);
  await router.health.probeAll();
  router.health.start();
  const server = createServer((req, res) => router.handle(req, res));
  server.on("upgrade", (req, socket: Socket, head: Buffer) => router.upgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(settings.port, settings.host, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${settings.host}:${port}`,
    server,
    health: router.health,
    close: async () => {
      router.health.stop();
      router.agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

class RegionRouter {
  readonly health: RegionHealth;
  readonly agent = new Agent({ keepAlive: true });
  /** The region each virtual host is on, kept while it stays healthy. */
  private readonly current = new Map<string, string>();
  private readonly byName: Map<string, Region>;

  constructor(
    private readonly settings: RouterSettings,
    private readonly logger?: Logger,
  ) {
    this.byName = new Map(settings.regions.map((region) => [region.name, region]));
    this.health = new RegionHealth(settings.regions, settings.healthIntervalMs, (region, healthy) =>
      logger?.warn({ region, healthy }, healthy ? "region healthy" : "region out"),
    );
  }

  handle(req: IncomingMessage, res: ServerResponse, tried: ReadonlySet<string> = new Set()): void {
    const target = this.target(req, tried);
    if (target instanceof ProblemError) {
      sendProblem(res, target);
      req.resume();
      return;
    }
    const upstream = request(
      `${target.url}${req.url ?? "/"}`,
      { method: req.method, headers: forwardedHeaders(req), agent: this.agent },
      (answer) => {
        const headers = withoutHopByHop(answer.headers);
        headers[SERVED_REGION_HEADER.toLowerCase()] = target.name;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (res.headersSent) {
        res.destroy(error);
        return;
      }
      this.health.unreachable(target.name);
      this.logger?.warn({ region: target.name, err: error }, "region unreachable");
      if (BODILESS_METHODS.has(req.method ?? "GET") && !hasBody(req)) {
        this.handle(req, res, new Set([...tried, target.name]));
        return;
      }
      sendProblem(
        res,
        new ProblemError({
          status: 503,
          category: "unavailable",
          code: "region-failed",
          detail: `Region ${target.name} failed while this request was on its way; send it again (with the same Idempotency-Key)`,
          headers: { "Retry-After": "1" },
        }),
      );
    });
    req.pipe(upstream);
  }

  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const target = this.target(req, new Set());
    if (target instanceof ProblemError) {
      socket.end(`HTTP/1.1 ${target.status} ${target.message}\r\nConnection: close\r\n\r\n`);
      return;
    }
    const upstream = request(`${target.url}${req.url ?? "/"}`, {
      method: req.method,
      headers: {
        ...forwardedHeaders(req),
        connection: "Upgrade",
        upgrade: req.headers.upgrade ?? "websocket",
      },
    });
    upstream.on("upgrade", (answer, upstreamSocket, upstreamHead) => {
      const lines = [`HTTP/1.1 101 ${answer.statusMessage ?? "Switching Protocols"}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2)
        lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      lines.push(`${SERVED_REGION_HEADER}: ${target.name}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (upstreamHead.length > 0) socket.write(upstreamHead);
      if (head.length > 0) upstreamSocket.write(head);
      upstreamSocket.pipe(socket).pipe(upstreamSocket);
      upstreamSocket.on("error", () => socket.destroy());
      socket.on("error", () => upstreamSocket.destroy());
    });
    upstream.on("response", (answer) => {
      socket.end(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\nConnection: close\r\n\r\n`);
      answer.resume();
    });
    upstream.on("error", () => {
      this.health.unreachable(target.name);
      socket.destroy();
    });
    upstream.end();
  }

  private target(req: IncomingMessage, tried: ReadonlySet<string>): Region | ProblemError {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    if (IDENTITY_PATH.test(req.url ?? "") && this.settings.identityRegion) {
      const identity = this.byName.get(this.settings.identityRegion) as Region;
      // One identity provider for all regions: no failover, its own outage is the answer.
      return tried.has(identity.name) ? unavailable(host) : identity;
    }
    const names = this.settings.hosts.get(host) ?? this.settings.hosts.get("*");
    if (!names) {
      return new ProblemError({
        status: 404,
        category: "not-found",
        code: "virtual-host",
        detail: `No tenant's API is served at ${host || "this host"}`,
      });
    }
    const candidates = names.map((name) => this.byName.get(name) as Region);
    const region = chooseRegion(
      candidates,
      (name) => !tried.has(name) && this.health.healthy(name),
      this.settings.location,
      this.current.get(host),
    );
    if (!region) return unavailable(host);
    this.current.set(host, region.name);
    return region;
  }
}

function unavailable(host: string): ProblemError {
  return new ProblemError({
    status: 503,
    category: "unavailable",
    code: "no-healthy-region",
    detail: `No region serving ${host || "this host"} is healthy`,
    headers: { "Retry-After": "5" },
  });
}

function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
}

function forwardedHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const headers = withoutHopByHop(req.headers);
  const client = req.socket.remoteAddress ?? "";
  const forwardedFor = req.headers["x-forwarded-for"];
  headers["x-forwarded-for"] = forwardedFor ? `${forwardedFor}, ${client}` : client;
  headers["x-forwarded-host"] = req.headers.host ?? "";
  headers["x-forwarded-proto"] = "http";
  return headers;
}

function withoutHopByHop(headers: IncomingMessage["headers"]): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

function sendProblem(res: ServerResponse, problem: ProblemError): void {
  const body = JSON.stringify(problemBody(problem, DEFAULT_ERRORS_URL, startTrace(undefined).correlationUrn));
  res.writeHead(problem.status, {
    ...problem.headers,
    "Content-Type": PROBLEM_CONTENT_TYPE,
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}
