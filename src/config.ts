import { hostname } from "node:os";

/**
 * Every setting the service reads, from the environment, in one place. The README's table of
 * environment variables is this file.
 */
import type { SignInRiskSettings } from "./identity/sign-in-risk.js";

export type RuntimeChoice = "auto" | "embedded" | "dapr";
export type ServiceName =
  | "operator-api"
  | "partner-api"
  | "passenger-api"
  | "workers"
  | "vendor-sim"
  | "identity";
export const ALL_SERVICES: readonly ServiceName[] = [
  "identity",
  "operator-api",
  "partner-api",
  "passenger-api",
  "workers",
  "vendor-sim",
];

export interface Config {
  runtime: RuntimeChoice;
  services: ServiceName[];
  appId: string;
  host: string;
  port: number;
  passengerPort: number;
  publicBaseUrl: string;
  passengerBaseUrl: string;
  stateStore: "memory" | "redis";
  /**
   * Where queryable documents live: `memory` (lost with the process), `redis` (a single node's
   * durable copy, one writer per prefix: src/runtime/redis/document-store.ts) or `mongodb`
   * (shared by every process). By default `redis` on a Redis state store without MONGODB_URL,
   * `mongodb` on one with it, else `memory`.
   */
  documentStore: "memory" | "redis" | "mongodb";
  /** The key prefix of `DOCUMENT_STORE=redis` (REDIS_DOCUMENT_PREFIX): one writer process per prefix. */
  redisDocumentPrefix: string;
  /**
   * The key prefix of the embedded runtime's `STATE_STORE=redis` (REDIS_STATE_PREFIX): actor state,
   * outbox, reminders and workflows, which a start takes up again, so one node per prefix.
   */
  redisStatePrefix: string;
  redisUrl: string;
  mongodbUrl: string | undefined;
  mongodbDatabase: string;
  dapr: {
    httpPort: number;
    grpcPort: number;
    probeTimeoutMs: number;
    pubsubName: string;
    /** The pub/sub component with a consumer group per sidecar, for subscriptions of every replica. */
    replicaPubsubName: string;
    stateStoreName: string;
    /** The sidecar's API token (DAPR_API_TOKEN), sent on every call to it when set. */
    apiToken: string | undefined;
    /** The token the sidecar sends on its calls to this app (APP_API_TOKEN), checked when set. */
    appApiToken: string | undefined;
  };
  /** External OIDC issuer for operator and partner tokens; the embedded identity provider is off when set. */
  oidcIssuer: string | undefined;
  oidcJwksUri: string | undefined;
  /** Host name → airline URN for the passenger surface; empty means `<code>.localhost` per demo airline. */
  passengerTenantHosts: string;
  /** Tenant of a passenger request whose host is not mapped (embedded default only). */
  passengerDefaultTenant: string | undefined;
  /** Ed25519 private JWK (JSON) for passenger sessions; a fresh key per process when absent. */
  passengerSigningKey: string | undefined;
  captchaSecret: string | undefined;
  errorsUrl: string;
  /** Multiplies every rate limit of spec 8.1; 1 unless a load test or benchmark raises it. */
  rateLimitScale: number;
  /**
   * Multiplies the call rates (and bursts) of the demo tenants' simulated hotel vendors (spec 8.1:
   * search 10, booking 5 per second); 1 unless a benchmark lifts the throttles.
   */
  vendorRateLimitScale: number;
  /** A new case gets its INITIAL demand (rooms for every group) without anyone asking. */
  demandOnIntake: boolean;
  /** Embedded default: an auto-approving ON_DEMAND policy at each demo airport without one. */
  seedDemoPolicies: boolean;
  /**
   * The flight-state stream (spec 6.3): a RabbitMQ URL (amqp://, amqps://), `file:<path>` of a
   * recorded JSON Lines stream, `dapr` (the sidecar's input binding components deliver it,
   * components/bindings-flight-states-rabbitmq.yaml), or off (the default: a fresh machine has no
   * broker, and replaying the recording on every start would detect the same disruptions again).
   */
  flightStateSource: "off" | "dapr" | BrokerUrl | `file:${string}`;
  /** The durable queue the flight states are read from on the broker. */
  flightStateQueue: string;
  /**
   * The disruption-push input binding (README "Bindings for integrators"): a RabbitMQ URL the
   * airline publishes disruption pushes to, `dapr` (the sidecar's input binding components deliver
   * them, components/bindings-disruption-pushes-*.yaml), or off (the default).
   */
  disruptionPushBinding: "off" | "dapr" | BrokerUrl;
  /** The durable queue of that binding. */
  disruptionPushQueue: string;
  /** The partner registration (client id) the binding's pushes act as, as a partner push would. */
  disruptionPushClientId: string | undefined;
  /**
   * `dapr`: e-mail and SMS go out through the sidecar's output bindings
   * (components/bindings-notifications-*.yaml) instead of SMTP and the HTTP provider; off by default.
   */
  notificationBindings: "off" | "dapr";
  /** Minutes between two reconciliation polls of each hotel vendor (spec 6.3: 5 to 60). */
  vendorReconciliationMinutes: number;
  /** Base URL of the vendor-sim app (distributed runtime); unset = simulators in process. */
  vendorSimUrl: string | undefined;
  /**
   * Hotels the simulated vendors' catalog places at every demo airport; unset = 25 to 40 drawn per
   * airport. Benchmarks raise it to search and allocate over thousands of offers.
   */
  simulatedHotelsPerAirport: number | undefined;
  /**
   * The step-up tables of operator sign-in (spec 5.1): MFA_HIGH_RISK_ADDRESSES (comma-separated
   * CIDR ranges), MFA_ADDRESS_LOCATIONS (JSON: CIDR range -> {"lat", "lon"}) and
   * MFA_MAX_TRAVEL_KMH (faster is impossible travel; 1000 by default).
   */
  signInRisk: SignInRiskSettings;
  /** The SMTP relay notifications are e-mailed through; unset = the in-process SMTP sink. */
  smtpUrl: string | undefined;
  /** Port of the in-process SMTP sink (0: a free one) when SMTP_URL is unset. */
  smtpSinkPort: number;
  /** The From header of notification e-mails. */
  mailFrom: string;
  /**
   * The demo airlines' on-call webhook (DEMO_ALERT_WEBHOOK_URL; src/demo/demo-airlines.ts): where
   * their pages are POSTed besides their on-call e-mail. A real directory names one per airline.
   */
  demoAlertWebhookUrl: string | undefined;
  /**
   * Webhooks to loopback hosts, over http too (WEBHOOK_ALLOW_LOOPBACK_HTTP); unset: on for the
   * embedded runtime (so the demo's local receiver works), off for the distributed one.
   */
  webhookAllowLoopbackHttp: boolean | undefined;
  /**
   * The exception agent's language model (AGENT_LLM_URL, AGENT_LLM_MODEL, AGENT_LLM_API_KEY): any
   * OpenAI-compatible endpoint; unset, the agent ranks by its rules only.
   */
  agentLlm: { url: string; model: string; apiKey: string | undefined } | undefined;
  build: string;
  apiVersion: string;
  region: string;
  /**
   * This node (NODE_ID; default: `<host name>/<app id>`, the host name being a pod's name under
   * Kubernetes): one process runs under a node id at a time against the same state, and each start
   * of it is a new incarnation (src/domain/incarnation.ts), so a restarted process takes over its
   * predecessor's booking claims at once. Replicas of one app on one host need a NODE_ID each.
   */
  nodeId: string;
  logLevel: string;
  shutdownTimeoutMs: number;
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

/** An integrator's broker: RabbitMQ (amqp, amqps) or MQTT (mqtt, mqtts). */
export type BrokerUrl = `${"amqp" | "amqps" | "mqtt" | "mqtts"}://${string}`;

const BROKER_URL = /^(amqps?|mqtts?):\/\/./;

function flightStateSource(value: string | undefined): Config["flightStateSource"] {
  if (!value || value === "off") return "off";
  if (value === "dapr" || BROKER_URL.test(value) || /^file:./.test(value))
    return value as Config["flightStateSource"];
  throw new Error(
    `FLIGHT_STATE_SOURCE must be off, dapr, amqp://..., mqtt://... (or amqps, mqtts) or file:<path>, got "${value}"`,
  );
}

function disruptionPushBinding(value: string | undefined): Config["disruptionPushBinding"] {
  if (!value || value === "off") return "off";
  if (value === "dapr" || BROKER_URL.test(value)) return value as Config["disruptionPushBinding"];
  throw new Error(
    `DISRUPTION_PUSH_BINDING must be off, dapr, amqp://... or mqtt://... (or amqps, mqtts), got "${value}"`,
  );
}

function notificationBindings(value: string | undefined): Config["notificationBindings"] {
  if (!value || value === "off") return "off";
  if (value === "dapr") return value;
  throw new Error(`NOTIFICATION_BINDINGS must be off or dapr, got "${value}"`);
}

function onOff(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === "") return fallback;
  if (value === "on" || value === "true" || value === "1") return true;
  if (value === "off" || value === "false" || value === "0") return false;
  throw new Error(`${name} must be on or off, got "${value}"`);
}

function inRange(
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
  name: string,
): number {
  const parsed = integer(value, fallback, name);
  if (parsed < min || parsed > max) throw new Error(`${name} must be from ${min} to ${max}, got "${value}"`);
  return parsed;
}

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
  name: string,
): T {
  if (value === undefined || value === "") return fallback;
  if (!allowed.includes(value as T))
    throw new Error(`${name} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

function addressLocations(value: string | undefined): SignInRiskSettings["addressLocations"] {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as SignInRiskSettings["addressLocations"];
  } catch {}
  throw new Error('MFA_ADDRESS_LOCATIONS must be a JSON object: {"<CIDR>": {"lat": <deg>, "lon": <deg>}}');
}

function services(value: string | undefined): ServiceName[] {
  if (!value || value === "all") return [...ALL_SERVICES];
  return value.split(",").map((s) => oneOf(s.trim(), ALL_SERVICES, "operator-api", "SERVICES"));
}

function documentStore(env: NodeJS.ProcessEnv, stateStore: Config["stateStore"]): Config["documentStore"] {
  // `mongo` is the setting's former spelling.
  if (env.DOCUMENT_STORE === "mongo") return "mongodb";
  const durable = env.MONGODB_URL ? "mongodb" : "redis";
  const fallback = stateStore === "redis" ? durable : "memory";
  return oneOf(env.DOCUMENT_STORE, ["memory", "redis", "mongodb"] as const, fallback, "DOCUMENT_STORE");
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || "127.0.0.1";
  const port = integer(env.PORT, 8080, "PORT");
  const passengerPort = integer(env.PASSENGER_PORT, 8081, "PASSENGER_PORT");
  const stateStore = oneOf(env.STATE_STORE, ["memory", "redis"] as const, "memory", "STATE_STORE");
  const appId = env.APP_ID || env.APP_ID_OVERRIDE || "disruption";
  return {
    runtime: oneOf(env.RUNTIME, ["auto", "embedded", "dapr"] as const, "auto", "RUNTIME"),
    services: services(env.SERVICES),
    appId,
    host,
    port,
    passengerPort,
    publicBaseUrl: env.PUBLIC_BASE_URL || `http://localhost:${port}`,
    passengerBaseUrl: env.PASSENGER_BASE_URL || `http://localhost:${passengerPort}`,
    stateStore,
    documentStore: documentStore(env, stateStore),
    redisDocumentPrefix: env.REDIS_DOCUMENT_PREFIX || "documents:",
    redisStatePrefix: env.REDIS_STATE_PREFIX || "state:",
    redisUrl: env.REDIS_URL || "redis://127.0.0.1:6379",
    mongodbUrl: env.MONGODB_URL || undefined,
    mongodbDatabase: env.MONGODB_DATABASE || "disruption",
    dapr: {
      httpPort: integer(env.DAPR_HTTP_PORT, 3500, "DAPR_HTTP_PORT"),
      grpcPort: integer(env.DAPR_GRPC_PORT, 50001, "DAPR_GRPC_PORT"),
      probeTimeoutMs: integer(env.DAPR_PROBE_TIMEOUT_MS, 1500, "DAPR_PROBE_TIMEOUT_MS"),
      pubsubName: env.DAPR_PUBSUB_NAME || "pubsub",
      replicaPubsubName: env.DAPR_REPLICA_PUBSUB_NAME || "pubsub-replicas",
      stateStoreName: env.DAPR_STATE_STORE_NAME || "statestore",
      apiToken: env.DAPR_API_TOKEN || undefined,
      appApiToken: env.APP_API_TOKEN || undefined,
    },
    oidcIssuer: env.OIDC_ISSUER || undefined,
    oidcJwksUri: env.OIDC_JWKS_URI || undefined,
    passengerTenantHosts: env.PASSENGER_TENANT_HOSTS || "",
    passengerDefaultTenant: env.PASSENGER_DEFAULT_TENANT || undefined,
    passengerSigningKey: env.PASSENGER_SIGNING_KEY || undefined,
    captchaSecret: env.CAPTCHA_HMAC_SECRET || undefined,
    errorsUrl: env.ERRORS_URL || "https://errors.svc.example/v1",
    rateLimitScale: integer(env.RATE_LIMIT_SCALE, 1, "RATE_LIMIT_SCALE") || 1,
    vendorRateLimitScale: integer(env.VENDOR_RATE_LIMIT_SCALE, 1, "VENDOR_RATE_LIMIT_SCALE") || 1,
    demandOnIntake: onOff(env.DEMAND_ON_INTAKE, true, "DEMAND_ON_INTAKE"),
    seedDemoPolicies: onOff(env.DEMO_POLICIES, true, "DEMO_POLICIES"),
    flightStateSource: flightStateSource(env.FLIGHT_STATE_SOURCE),
    flightStateQueue: env.FLIGHT_STATE_QUEUE || "flight-states",
    disruptionPushBinding: disruptionPushBinding(env.DISRUPTION_PUSH_BINDING),
    disruptionPushQueue: env.DISRUPTION_PUSH_QUEUE || "disruption-pushes",
    disruptionPushClientId: env.DISRUPTION_PUSH_CLIENT_ID || undefined,
    notificationBindings: notificationBindings(env.NOTIFICATION_BINDINGS),
    vendorReconciliationMinutes: inRange(
      env.VENDOR_RECONCILIATION_MINUTES,
      15,
      5,
      60,
      "VENDOR_RECONCILIATION_MINUTES",
    ),
    vendorSimUrl: env.VENDOR_SIM_URL?.replace(/\/+$/, "") || undefined,
    simulatedHotelsPerAirport:
      integer(env.SIMULATED_HOTELS_PER_AIRPORT, 0, "SIMULATED_HOTELS_PER_AIRPORT") || undefined,
    signInRisk: {
      highRiskAddresses: (env.MFA_HIGH_RISK_ADDRESSES ?? "")
        .split(",")
        .map((range) => range.trim())
        .filter(Boolean),
      addressLocations: addressLocations(env.MFA_ADDRESS_LOCATIONS),
      maxTravelKmPerHour: integer(env.MFA_MAX_TRAVEL_KMH, 1000, "MFA_MAX_TRAVEL_KMH") || 1000,
    },
    smtpUrl: env.SMTP_URL || undefined,
    smtpSinkPort: integer(env.SMTP_SINK_PORT, 0, "SMTP_SINK_PORT"),
    mailFrom: env.MAIL_FROM || "Disruption care <care@disruption.localhost>",
    demoAlertWebhookUrl: env.DEMO_ALERT_WEBHOOK_URL || undefined,
    webhookAllowLoopbackHttp: env.WEBHOOK_ALLOW_LOOPBACK_HTTP
      ? onOff(env.WEBHOOK_ALLOW_LOOPBACK_HTTP, false, "WEBHOOK_ALLOW_LOOPBACK_HTTP")
      : undefined,
    agentLlm: env.AGENT_LLM_URL
      ? {
          url: env.AGENT_LLM_URL,
          model: env.AGENT_LLM_MODEL || "gpt-4o-mini",
          apiKey: env.AGENT_LLM_API_KEY || undefined,
        }
      : undefined,
    build: env.BUILD_ID || "dev",
    apiVersion: "v1",
    region: env.REGION || "local",
    nodeId: env.NODE_ID || `${hostname()}/${appId}`,
    logLevel: env.LOG_LEVEL || "info",
    shutdownTimeoutMs: integer(env.SHUTDOWN_TIMEOUT_MS, 10_000, "SHUTDOWN_TIMEOUT_MS"),
  };
}
