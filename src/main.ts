/**
 * Composition root: reads the configuration, chooses the runtime and every adapter, binds them in
 * a tsyringe container of this platform (a child of the global one, so several platforms can run
 * in one process), lets every module register its use cases there, and starts the services this
 * process runs. Nothing else chooses adapters.
 */
import "reflect-metadata";
import { fileURLToPath, pathToFileURL } from "node:url";
import type Koa from "koa";
import type { Logger } from "pino";
import { container, type DependencyContainer } from "tsyringe";
import { alertingModule } from "../services/alerting/module.js";
import { casesModule } from "../services/cases/module.js";
import { bookingModule } from "../services/booking/module.js";
import { demoBookingCards } from "../services/booking/booking-settings.js";
import { demandModule } from "../services/demand/module.js";
import { PLATFORM_EXCHANGE_RATES } from "../services/hotels/exchange-rates.js";
import { hotelsModule } from "../services/hotels/module.js";
import { demoVendorSettings } from "../services/hotels/vendor-settings.js";
import { manualReviewModule } from "../services/manual-review/module.js";
import { passengerModule } from "../services/passenger-api/module.js";
import { emailChannel } from "../services/notifications/email-channel.js";
import { notificationsModule } from "../services/notifications/module.js";
import { partnerApiModule } from "../services/partner-api/module.js";
import { providerChannel } from "../services/notifications/provider-channel.js";
import { SmtpSink, type SunkMessage } from "../services/notifications/smtp-sink.js";
import {
  DEMO_MESSAGE_PROVIDERS,
  type MessageProviderId,
  MessageProviderSimulators,
} from "../services/vendor-sim/message-provider.js";
import { policiesModule } from "../services/policies/module.js";
import { subCasesModule } from "../services/sub-cases/module.js";
import { TesseractContractReader } from "./vendors/tesseract-contract-reader.js";
import { httpWebhookTransport } from "../services/webhooks/http-webhook-transport.js";
import { webhooksModule } from "../services/webhooks/module.js";
import { transportModule } from "../services/transport/module.js";
import { RideProviderSimulator } from "../services/vendor-sim/ride-provider.js";
import { walletModule } from "../services/wallet/module.js";
import { flightStatesModule } from "../services/flight-states/module.js";
import { bindingsModule } from "../services/bindings/module.js";
import {
  NOTIFICATION_BINDINGS,
  emailBindingChannel,
  smsBindingChannel,
} from "../services/notifications/binding-channel.js";
import { AmqpQueueBinding } from "./runtime/amqp/queue-binding.js";
import { MqttTopicBinding } from "./runtime/mqtt/topic-binding.js";
import type { InputBinding } from "./runtime/bindings.js";
import { FileFlightStateSource } from "./runtime/file/flight-state-source.js";
import type { FlightStateSource } from "./runtime/flight-state-source.js";
import {
  WALLET_SIM_ID,
  WalletIssuerSimulator,
  demoWalletIssuer,
} from "../services/vendor-sim/wallet-issuer.js";
import { walletRevealPages } from "../services/vendor-sim/wallet-issuer-app.js";
import { demoWalletAccounts } from "./demo/demo-wallet-accounts.js";
import { TenantWalletIssuers } from "./vendors/tenant-wallet-issuers.js";
import {
  type ModuleContext,
  type ServiceModule,
  subscriptionsHandledBy,
  workflowsRunBy,
} from "../services/module.js";
import { revocationRoutes, serviceTokenRoute } from "../services/operator-api/admin-routes.js";
import { passkeyRoutes } from "../services/operator-api/passkey-routes.js";
import { platformModule } from "../services/operator-api/module.js";
import { healthRoutes } from "../services/operator-api/health-routes.js";
import { backgroundHost, operatorHost, passengerHost } from "../services/hosts.js";
import { buildCatalog, type SimulatedVendorId } from "../services/vendor-sim/catalog.js";
import { createVendorSimulators, type VendorSimulators } from "../services/vendor-sim/simulators.js";
import { DEMO_INVENTORY_SEED, vendorSimulatorsApp } from "../services/vendor-sim/vendor-sim-service.js";
import { type RunningServer, listen } from "../services/http-server.js";
import { passengerAuthentication } from "../services/passenger-api/passenger-authentication.js";
import { parseTenantHosts, passengerSites, tenantOfHost } from "../services/passenger-api/tenant-hosts.js";
import { operatorTokenAuthentication } from "../services/realtime/operator-token-authentication.js";
import { type RealtimeChannel, attachRealtime } from "../services/realtime/realtime-channel.js";
import { RealtimeHub } from "../services/realtime/realtime-hub.js";
import { AuditLog } from "./app/audit-log.js";
import { DEFAULT_BOOKING_SETTINGS } from "./app/booking/booking-settings.js";
import type {
  CallbackSecrets,
  NotificationChannel,
  NotificationChannels,
} from "./app/notifications/notification-channel.js";
import type { NotificationSettings } from "./app/notifications/notification-settings.js";
import type { WebhookSettings } from "./app/webhooks/webhook-transport.js";
import { DocumentAuditTrail } from "./app/document-audit-trail.js";
import { MemoryAuditTrail } from "./app/memory-audit-trail.js";
import { type BrokerUrl, type Config, type ServiceName, loadConfig } from "./config.js";
import { createDemoDirectory } from "./demo/demo-directory.js";
import { demoPassengerHostName } from "./demo/demo-passenger-hosts.js";
import { publishEvent } from "./runtime/event-bus.js";
import { auditRecorder } from "./http/audit-recorder.js";
import { createAuthenticator } from "./http/auth/authenticator.js";
import { EmergencyRevocationList } from "./http/auth/emergency-revocations.js";
import type { RouteDeps } from "./http/request-pipeline.js";
import { scaledRateLimits } from "./http/rate-limit.js";
import type { Route } from "./http/route.js";
import { defaultAudiences } from "./identity/audiences.js";
import { createIdentityProvider } from "./identity/identity-provider.js";
import { relyingPartyOf } from "./identity/passkey-ceremonies.js";
import { CounterStoreRevokedGrants } from "./http/auth/revoked-grants.js";
import { createLogger } from "./logger.js";
import { DocumentPassengerDirectory } from "./passenger-identity/document-passenger-directory.js";
import { createPassengerIdentity, type PassengerIdentity } from "./passenger-identity/passenger-identity.js";
import { type Clock, systemClock } from "./runtime/clock.js";
import type { CounterStore } from "./runtime/counter-store.js";
import { probeSidecar } from "./runtime/dapr/sidecar-probe.js";
import type { DocumentStore } from "./runtime/document-store.js";
import { type ReadinessCheck, storeReadinessChecks } from "./runtime/readiness.js";
import { createEmbeddedRuntime } from "./runtime/embedded/runtime.js";
import { MemoryCounterStore } from "./runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "./runtime/memory/document-store.js";
import { MemoryStateStore } from "./runtime/memory/state-store.js";
import { MongoDocumentStore } from "./runtime/mongo/document-store.js";
import { RedisDocumentStore } from "./runtime/redis/document-store.js";
import { RedisCounterStore } from "./runtime/redis/counter-store.js";
import { RedisStateStore } from "./runtime/redis/state-store.js";
import type { Runtime, RuntimeContributions } from "./runtime/runtime.js";
import { startIncarnation } from "./runtime/incarnation.js";
import { TOKENS } from "./runtime/tokens.js";
import { httpTransport } from "./vendors/http-transport.js";
import { inProcessTransport } from "./vendors/in-process-transport.js";
import { RideProviderClient } from "./vendors/ride-provider-client.js";
import type { RideProviderBinding } from "./app/transport/ride-booking.js";
import { TenantInventoryVendors } from "./vendors/tenant-vendors.js";
import type { VendorTransport } from "./vendors/vendor-transport.js";
import { NO_ADVISOR } from "./app/manual-review/agent-advisor.js";
import { OpenAiCompatibleAdvisor } from "./vendors/openai-compatible-advisor.js";

export interface Platform {
  config: Config;
  runtime: Runtime;
  /** The audit trail every module writes to (for operations tooling and tests). */
  audit: AuditLog;
  /** This platform's container: the adapters chosen here and every module's use cases. */
  container: DependencyContainer;
  urls: { operator?: string; passenger?: string; auth?: string };
  close(): Promise<void>;
}

export interface PlatformOverrides {
  clock?: Clock;
  logger?: Logger;
}

/**
 * Every product area this build serves; each brings its actors, workflows, use cases, subscriptions
 * and routes.
 */
export const MODULES: readonly ServiceModule[] = [
  platformModule,
  casesModule,
  subCasesModule,
  policiesModule,
  demandModule,
  hotelsModule,
  bookingModule,
  manualReviewModule,
  passengerModule,
  notificationsModule,
  partnerApiModule,
  webhooksModule,
  transportModule,
  walletModule,
  flightStatesModule,
  bindingsModule,
  alertingModule,
];

/**
 * What the modules contribute to whichever runtime runs them, with the subscriptions and workflows
 * of the services `handling`.
 */
function contributions(
  context: () => ModuleContext,
  tenants: readonly string[],
  handling: readonly ServiceName[] | "all",
): RuntimeContributions {
  return {
    actorTypes: MODULES.flatMap((m) => m.actorTypes ?? []),
    workflows: workflowsRunBy(MODULES, handling, context),
    subscriptions: subscriptionsHandledBy(MODULES, handling, context, tenants),
  };
}

async function chooseRuntime(config: Config, logger: Logger): Promise<"embedded" | "dapr"> {
  if (config.runtime !== "auto") return config.runtime;
  const found = await probeSidecar(config.dapr, config.dapr.probeTimeoutMs);
  logger.info({ daprHttpPort: config.dapr.httpPort, found }, "probed for a Dapr sidecar");
  return found ? "dapr" : "embedded";
}

async function documentStore(config: Config): Promise<DocumentStore> {
  if (config.documentStore === "memory") return new MemoryDocumentStore();
  if (config.documentStore === "redis") {
    return RedisDocumentStore.open({ url: config.redisUrl, prefix: config.redisDocumentPrefix });
  }
  if (!config.mongodbUrl) throw new Error("DOCUMENT_STORE=mongodb needs MONGODB_URL");
  return MongoDocumentStore.connect(config.mongodbUrl, config.mongodbDatabase);
}

/** Shared counters live in Redis whenever state does or several processes share them (Dapr). */
async function counterStore(config: Config, kind: "embedded" | "dapr", clock: Clock): Promise<CounterStore> {
  if (kind === "embedded" && config.stateStore === "memory") return new MemoryCounterStore(clock);
  return RedisCounterStore.connect({ url: config.redisUrl, prefix: "counters:" });
}

async function createRuntime(
  config: Config,
  clock: Clock,
  logger: Logger,
  context: () => ModuleContext,
  tenants: readonly string[],
): Promise<Runtime> {
  const kind = await chooseRuntime(config, logger);
  const documents = await documentStore(config);
  const counters = await counterStore(config, kind, clock);
  const onError = (error: unknown, where: string) => logger.error({ err: error, where }, "runtime error");
  if (kind === "dapr") {
    const { createDaprRuntime } = await import("./runtime/dapr/runtime.js");
    const contributed = contributions(context, tenants, config.services);
    // Under Dapr one app id hosts the actors (workers); the APIs call them through their sidecars.
    const actorTypes = config.services.includes("workers") ? contributed.actorTypes : [];
    return createDaprRuntime({
      dapr: config.dapr,
      appId: config.appId,
      clock,
      documents,
      counters,
      onError,
      ...contributed,
      actorTypes,
    });
  }
  const state =
    config.stateStore === "redis"
      ? await RedisStateStore.connect({ url: config.redisUrl, prefix: config.redisStatePrefix })
      : new MemoryStateStore();
  return createEmbeddedRuntime({
    clock,
    state,
    documents,
    counters,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    onError,
    ...contributions(context, tenants, "all"),
  });
}

/** What `/readyz` probes: the runtime's stores and, on the distributed runtime, the sidecar. */
function readinessChecks(config: Config, runtime: Runtime): ReadinessCheck[] {
  const sidecar: ReadinessCheck = {
    name: "Dapr sidecar",
    probe: async () => {
      if (!(await probeSidecar(config.dapr, config.dapr.probeTimeoutMs))) {
        throw new Error(`no answer from the sidecar at DAPR_HTTP_PORT ${config.dapr.httpPort}`);
      }
    },
  };
  return [...(runtime.kind === "dapr" ? [sidecar] : []), ...storeReadinessChecks(runtime)];
}

/** The runtime's ports, bound in one platform's container. */
function bindPorts(platform: DependencyContainer, config: Config, logger: Logger, runtime: Runtime): void {
  platform.register(TOKENS.config, { useValue: config });
  platform.register(TOKENS.logger, { useValue: logger });
  platform.register(TOKENS.runtime, { useValue: runtime });
  platform.register(TOKENS.clock, { useValue: runtime.clock });
  platform.register(TOKENS.actors, { useValue: runtime.actors });
  platform.register(TOKENS.bus, { useValue: runtime.bus });
  platform.register(TOKENS.workflows, { useValue: runtime.workflows });
  platform.register(TOKENS.state, { useValue: runtime.state });
  platform.register(TOKENS.documents, { useValue: runtime.documents });
  platform.register(TOKENS.counters, { useValue: runtime.counters });
}

/**
 * The hotel vendors of every tenant. Vendors are reached in process on the embedded default (the
 * simulators run inside this process), or over HTTP when the vendor-sim app's address is configured
 * (`VENDOR_SIM_URL`, distributed runtime): each vendor then answers at `<url>/<vendor id>`.
 */
function hotelVendors(config: Config, clock: Clock, simulators: VendorSimulators): TenantInventoryVendors {
  const { vendorSimUrl } = config;
  const inProcess = (vendor: string): VendorTransport => {
    const simulator = simulators.byId[vendor as SimulatedVendorId];
    if (!simulator) throw new Error(`No simulator for vendor "${vendor}"`);
    return inProcessTransport(simulator);
  };
  return new TenantInventoryVendors({
    settingsOf: demoVendorSettings(config.vendorRateLimitScale),
    mockTransportOf: vendorSimUrl ? (vendor) => httpTransport(`${vendorSimUrl}/${vendor}`) : inProcess,
    clock,
  });
}

/**
 * The notification channels. SMS and the messaging app are the simulated providers: in process, or
 * over HTTP at the vendor-sim app (`VENDOR_SIM_URL`), their callbacks coming back to this service's
 * public URL. E-mail goes through `SMTP_URL`, or else through an SMTP sink started here, which
 * keeps what it receives (and logs each message, magic links included, for the demo).
 */
async function notificationChannels(
  config: Config,
  logger: Logger,
  providers: MessageProviderSimulators,
  runtime: Runtime,
): Promise<{ channels: NotificationChannels; sink: SmtpSink | undefined; close(): Promise<void> }> {
  const provider = (id: MessageProviderId) =>
    providerChannel({
      channel: id,
      transport: config.vendorSimUrl
        ? httpTransport(`${config.vendorSimUrl}/${id}`)
        : inProcessTransport(providers[id]),
      apiKey: DEMO_MESSAGE_PROVIDERS[id].apiKey,
      callbackUrl: `${config.publicBaseUrl}/v1/notifications/callbacks/${id}`,
    });
  if (config.notificationBindings === "dapr") {
    if (!runtime.outputBinding) throw new Error("NOTIFICATION_BINDINGS=dapr needs the Dapr runtime");
    const channels = [
      smsBindingChannel(runtime.outputBinding(NOTIFICATION_BINDINGS.sms)),
      provider("messaging"),
      emailBindingChannel(runtime.outputBinding(NOTIFICATION_BINDINGS.email)),
    ];
    return { channels, sink: undefined, close: async () => undefined };
  }
  // Only the apps that send (the saga's workers, the operator API's resends) need a mail server.
  const sends = config.services.includes("workers") || config.services.includes("operator-api");
  const sink =
    config.smtpUrl || !sends
      ? undefined
      : await SmtpSink.start({
          port: config.smtpSinkPort,
          // Only a log that prints it asks the sink to parse each message as it arrives.
          ...(logger.isLevelEnabled("info")
            ? {
                onMessage: (m: SunkMessage) =>
                  logger.info(
                    { to: m.envelope.to, subject: m.subject, text: m.text },
                    "e-mail kept by the SMTP sink",
                  ),
              }
            : {}),
        });
  const smtpUrl = config.smtpUrl ?? sink?.url;
  const email = smtpUrl ? emailChannel({ smtpUrl, from: config.mailFrom }) : undefined;
  return {
    channels: [provider("sms"), provider("messaging"), ...(email ? [email] : [])],
    sink,
    close: async () => {
      email?.close();
      await sink?.close();
    },
  };
}

/**
 * The ride provider of ground transport: the simulator, in process or over HTTP at the vendor-sim
 * app (`VENDOR_SIM_URL`, under `/rides`); its progress callbacks come back to this service's public URL.
 */
function rideProvider(config: Config, clock: Clock, simulator: RideProviderSimulator): RideProviderBinding {
  const { id, apiKey, callbackSecret } = simulator.settings;
  return {
    provider: new RideProviderClient({
      id,
      apiKey,
      clock,
      transport: config.vendorSimUrl
        ? httpTransport(`${config.vendorSimUrl}/${id}`)
        : inProcessTransport(simulator),
    }),
    callbackUrl: `${config.publicBaseUrl}/v1/transport/callbacks/${id}`,
    callbackSecret,
  };
}

/**
 * The simulated wallet issuer (spec 5.6: the demo tenants' mode is mock): its hosted reveal page is
 * reached at the vendor-sim app's `/wallet-sim`, or on the embedded default at the operator host's
 * `/vendor-sim/wallet-sim`; it posts card activity to this service's wallet webhook.
 */
function walletIssuerSimulator(config: Config, clock: Clock): WalletIssuerSimulator {
  const simulators = config.vendorSimUrl ?? `${config.publicBaseUrl}/vendor-sim`;
  const vendor = WALLET_SIM_ID;
  return demoWalletIssuer(clock, {
    publicUrl: `${simulators}/${vendor}`,
    webhookUrl: `${config.publicBaseUrl}/v1/wallet/webhooks/${vendor}`,
  });
}

/** Every tenant's wallet issuer: the demo accounts, in process or at the vendor-sim app (`VENDOR_SIM_URL`). */
function walletIssuers(config: Config, clock: Clock, simulator: WalletIssuerSimulator): TenantWalletIssuers {
  const accounts = demoWalletAccounts();
  return new TenantWalletIssuers({
    accountOf: (tenant) => accounts.get(tenant),
    mockTransportOf: (vendor) =>
      config.vendorSimUrl ? httpTransport(`${config.vendorSimUrl}/${vendor}`) : inProcessTransport(simulator),
    clock,
  });
}

/**
 * The flight-state stream (spec 6.3), when FLIGHT_STATE_SOURCE names one: a RabbitMQ queue, the
 * Dapr sidecar's input binding components, or a recorded JSON Lines file for the demo.
 */
function flightStateSource(config: Config, runtime: Runtime): FlightStateSource | undefined {
  const source = config.flightStateSource;
  if (source === "off") return undefined;
  if (source === "dapr") {
    if (!runtime.inputBinding) throw new Error("FLIGHT_STATE_SOURCE=dapr needs the Dapr runtime");
    return runtime.inputBinding(config.flightStateQueue);
  }
  if (source.startsWith("file:")) return new FileFlightStateSource(source.slice("file:".length));
  return brokerBinding(source as BrokerUrl, config.flightStateQueue, config.appId);
}

/** An input binding on an integrator's broker: a RabbitMQ queue, or an MQTT topic of that name. */
function brokerBinding(url: BrokerUrl, queue: string, appId: string): InputBinding {
  if (url.startsWith("mqtt"))
    return new MqttTopicBinding({ url, topic: queue, clientId: `${appId}-${queue}` });
  return new AmqpQueueBinding({ url, queue });
}

/**
 * The disruption-push input binding, when DISRUPTION_PUSH_BINDING names one: a RabbitMQ queue, or
 * the Dapr sidecar's input binding components (which name it in their `route` metadata).
 */
function disruptionPushBinding(config: Config, runtime: Runtime): InputBinding | undefined {
  if (config.disruptionPushBinding === "off") return undefined;
  if (!config.disruptionPushClientId) {
    throw new Error(
      "DISRUPTION_PUSH_BINDING needs DISRUPTION_PUSH_CLIENT_ID, the registration its pushes act as",
    );
  }
  if (config.disruptionPushBinding === "dapr") {
    if (!runtime.inputBinding) throw new Error("DISRUPTION_PUSH_BINDING=dapr needs the Dapr runtime");
    return runtime.inputBinding(config.disruptionPushQueue);
  }
  return brokerBinding(config.disruptionPushBinding, config.disruptionPushQueue, config.appId);
}

/** The passenger logins the case projection writes: the passenger identity's document directory. */
function passengerLogins(passengers: PassengerIdentity): DocumentPassengerDirectory {
  if (!(passengers.directory instanceof DocumentPassengerDirectory)) {
    throw new Error(
      "The case lifecycle writes passenger logins: the passenger directory must be a DocumentPassengerDirectory",
    );
  }
  return passengers.directory;
}

export async function startPlatform(config: Config, overrides: PlatformOverrides = {}): Promise<Platform> {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config.logLevel);
  let moduleContext: ModuleContext | undefined;
  const context = () => {
    if (!moduleContext) throw new Error("An event arrived before the platform finished starting");
    return moduleContext;
  };
  const directory = createDemoDirectory(clock, { alertWebhookUrl: config.demoAlertWebhookUrl });
  const organizations = await directory.organizations();
  const tenants = organizations.map((o) => o.airlineUrn);
  const runtime = await createRuntime(config, clock, logger, context, tenants);
  const platform = container.createChildContainer();
  bindPorts(platform, config, logger, runtime);

  const runs = new Set(config.services);
  const authUrl = config.oidcIssuer ?? `${config.publicBaseUrl}/auth`;
  const audiences = defaultAudiences(config.publicBaseUrl, config.passengerBaseUrl);
  const revokedGrants = new CounterStoreRevokedGrants(runtime.counters);
  const revocations = new EmergencyRevocationList(runtime.documents, clock);
  const audit = new AuditLog(
    config.documentStore === "memory" ? new MemoryAuditTrail() : new DocumentAuditTrail(runtime.documents),
    clock,
  );

  // The identity provider sends its SMS codes (spec 5.1, last resort) through the notification
  // port's SMS channel, which is built further down.
  let smsChannel: NotificationChannel | undefined;
  const identity =
    config.oidcIssuer || !runs.has("identity")
      ? undefined
      : await createIdentityProvider({
          issuer: authUrl,
          directory,
          audiences,
          revokedGrants,
          clock,
          documents: runtime.documents,
          relyingParty: relyingPartyOf(config.publicBaseUrl),
          signInRisk: config.signInRisk,
          smsChannel: () => smsChannel,
        });
  const hosts = config.passengerTenantHosts
    ? parseTenantHosts(config.passengerTenantHosts)
    : new Map(organizations.map((o) => [demoPassengerHostName(o.code), o.airlineUrn] as const));
  // A host in nobody's name falls back to the first demo airline only on the demo's own host names;
  // with configured hosts it serves no airline unless PASSENGER_DEFAULT_TENANT names one.
  const tenantOf = tenantOfHost(
    hosts,
    config.passengerDefaultTenant ?? (config.passengerTenantHosts ? undefined : organizations[0]?.airlineUrn),
  );
  const passengerSiteOf = passengerSites(hosts, config.passengerBaseUrl);
  const passengers = await createPassengerIdentity({
    passengerBaseUrl: config.passengerBaseUrl,
    passengerSiteOf,
    audience: audiences.passenger,
    ...(config.passengerSigningKey ? { signingKey: JSON.parse(config.passengerSigningKey) } : {}),
    ...(config.captchaSecret ? { captchaSecret: config.captchaSecret } : {}),
    onLoginLocked: (event) => publishEvent(runtime.bus, event),
    counters: runtime.counters,
    documents: runtime.documents,
    clock,
  });
  const operatorTrust = (audience: string) =>
    identity
      ? { issuer: identity.issuer, audience, jwks: identity.jwks }
      : { issuer: authUrl, audience, jwksUri: config.oidcJwksUri ?? `${authUrl}/jwks` };
  const tokens = createAuthenticator({
    operator: operatorTrust(audiences.operator),
    partner: operatorTrust(audiences.partner),
    passenger: { issuer: passengers.issuer, audience: passengers.audience, jwks: passengers.jwks },
    partnerRegistrations: (clientId) => directory.findPartnerRegistration(clientId),
    revocations,
    revokedGrants,
    clock,
  });

  // The simulators give the hotel catalog even when the vendor-sim app takes the traffic: it sells
  // the same seeded inventory.
  const hotels = config.simulatedHotelsPerAirport;
  const simulators = createVendorSimulators({
    seed: DEMO_INVENTORY_SEED,
    clock,
    ...(hotels
      ? { catalog: buildCatalog({ seed: DEMO_INVENTORY_SEED, hotelsPerAirport: [hotels, hotels] }) }
      : {}),
  });
  platform.register(TOKENS.audit, { useValue: audit });
  platform.register(TOKENS.directory, { useValue: directory });
  platform.register(TOKENS.passengers, { useValue: passengers });
  platform.register(TOKENS.passengerLogins, { useValue: passengerLogins(passengers) });
  platform.register(TOKENS.caseRevocations, { useValue: passengers.revocations });
  platform.register(TOKENS.vendorSimulators, { useValue: simulators });
  platform.register(TOKENS.vendors, { useValue: hotelVendors(config, clock, simulators) });
  platform.register(TOKENS.exchangeRates, { useValue: PLATFORM_EXCHANGE_RATES });
  platform.register(TOKENS.bookingCards, { useValue: demoBookingCards() });
  platform.register(TOKENS.bookingSettings, { useValue: DEFAULT_BOOKING_SETTINGS });
  platform.register(TOKENS.incarnation, {
    useValue: await startIncarnation(runtime.counters, config.nodeId),
  });
  const messageProviders = new MessageProviderSimulators(clock, {
    onMessage: (provider, m) =>
      logger.info({ provider, to: m.to, text: m.text }, "message taken by the simulated provider"),
  });
  const notifications = await notificationChannels(config, logger, messageProviders, runtime);
  smsChannel = notifications.channels.find((channel) => channel.name === "sms");
  platform.register(MessageProviderSimulators, { useValue: messageProviders });
  platform.register(TOKENS.notificationChannels, { useValue: notifications.channels });
  platform.register(TOKENS.notificationCallbackSecrets, {
    useValue: {
      sms: DEMO_MESSAGE_PROVIDERS.sms.callbackSecret,
      messaging: DEMO_MESSAGE_PROVIDERS.messaging.callbackSecret,
    } satisfies CallbackSecrets,
  });
  platform.register(TOKENS.notificationSettings, {
    useValue: { passengerSiteOf } satisfies NotificationSettings,
  });
  if (notifications.sink) platform.register(SmtpSink, { useValue: notifications.sink });
  const webhookTransport = httpWebhookTransport();
  platform.register(TOKENS.webhookTransport, { useValue: webhookTransport });
  const contractReader = new TesseractContractReader();
  platform.register(TOKENS.contractImageReader, { useValue: contractReader });
  platform.register(TOKENS.webhookSettings, {
    useValue: {
      allowLoopbackHttp: config.webhookAllowLoopbackHttp ?? runtime.kind === "embedded",
    } satisfies WebhookSettings,
  });
  const rides = new RideProviderSimulator({ clock, seed: DEMO_INVENTORY_SEED });
  platform.register(RideProviderSimulator, { useValue: rides });
  platform.register(TOKENS.rideProvider, { useValue: rideProvider(config, clock, rides) });
  const walletIssuer = walletIssuerSimulator(config, clock);
  platform.register(WalletIssuerSimulator, { useValue: walletIssuer });
  platform.register(TOKENS.walletIssuers, { useValue: walletIssuers(config, clock, walletIssuer) });
  platform.register(TOKENS.agentAdvisor, {
    useValue: config.agentLlm ? new OpenAiCompatibleAdvisor(config.agentLlm) : NO_ADVISOR,
  });
  const flightStates = flightStateSource(config, runtime);
  if (flightStates) platform.register(TOKENS.flightStateSource, { useValue: flightStates });
  const pushes = disruptionPushBinding(config, runtime);
  if (pushes) platform.register(TOKENS.disruptionPushBinding, { useValue: pushes });
  for (const module of MODULES) module.register?.(platform);

  moduleContext = { container: platform, config, runtime, logger, audit, directory, passengers };
  const startModules = async (context: ModuleContext) => {
    for (const module of MODULES) await module.start?.(context);
  };
  // Embedded: everything is in this process, so modules start before the first request, and before
  // the runtime resumes what a previous process left in the state store (outbox events, reminders,
  // workflow runs), which needs what they set up: the hotel catalog, the demo policies, the indexes.
  if (runtime.kind === "embedded") await startModules(moduleContext);
  await runtime.start();

  const routes: Route[] = [
    ...(identity ? [serviceTokenRoute((request) => identity.mintServiceToken(request))] : []),
    ...(identity ? passkeyRoutes(identity.passkeys, directory) : []),
    ...revocationRoutes(revocations),
    ...passengers.routes(tenantOf),
    ...MODULES.flatMap((m) => m.routes?.(moduleContext!) ?? []),
    ...healthRoutes(readinessChecks(config, runtime)),
  ];
  const deps: RouteDeps = {
    authenticate: passengerAuthentication(passengers, tenantOf, (ctx, access) =>
      tokens.authenticate(ctx, access),
    ),
    counters: runtime.counters,
    clock,
    logger,
    errorsUrl: config.errorsUrl,
    rateLimits: scaledRateLimits(config.rateLimitScale),
    audit: auditRecorder(audit),
  };
  const hostParts = {
    routes,
    deps,
    logger,
    errorsUrl: config.errorsUrl,
    publicBaseUrl: config.publicBaseUrl,
    passengerBaseUrl: config.passengerBaseUrl,
    authUrl,
    build: config.build,
    frontEndsFolder: fileURLToPath(new URL("../dist/ui", import.meta.url)),
    ...(runtime.sidecarRoutes ? { sidecar: runtime.sidecarRoutes } : {}),
    // In process, the simulated wallet issuer's hosted reveal page is served here (walletIssuerSimulator).
    ...(config.vendorSimUrl ? {} : { simulatorPages: walletRevealPages(walletIssuer, "/vendor-sim") }),
  };

  const servers: RunningServer[] = [];
  const urls: Platform["urls"] = {};
  const serve = async (app: Koa, port: number) => {
    const server = await listen(app, config.host, port, { errorsUrl: config.errorsUrl });
    servers.push(server);
    return server;
  };
  const operatorSide = ["identity", "operator-api", "partner-api"].some((s) => runs.has(s as never));
  let realtime: RealtimeChannel | undefined;
  if (operatorSide) {
    const operatorServer = await serve(
      operatorHost({ ...hostParts, ...(identity ? { identity: identity.app } : {}) }),
      config.port,
    );
    urls.operator = operatorServer.url;
    if (identity) urls.auth = `${urls.operator}/auth`;
    if (runs.has("operator-api")) {
      realtime = attachRealtime(operatorServer.server, {
        authenticate: operatorTokenAuthentication(tokens),
        runtime,
        hub: platform.resolve(RealtimeHub),
        clock,
        logger,
      });
    }
  }
  if (runs.has("passenger-api")) {
    const samePort = operatorSide && config.passengerPort === config.port;
    if (!samePort) urls.passenger = (await serve(passengerHost(hostParts), config.passengerPort)).url;
  }
  // A Dapr app without an API (workers, vendor-sim) still answers its sidecar and health checks.
  if (!urls.operator && !urls.passenger) {
    urls.operator = (
      await serve(backgroundHost(hostParts, vendorSimulatorsApp(moduleContext, runs)), config.port)
    ).url;
  }

  // Dapr: module start-up may call actors, which the sidecar reaches only once this app listens and
  // the sidecar has read its configuration; keep trying in the background until it can.
  const modulesStarted =
    runtime.kind === "dapr" ? startWhenSidecarReady(() => startModules(moduleContext!), logger) : undefined;

  let closing: Promise<void> | undefined;
  return {
    config,
    runtime,
    audit,
    container: platform,
    urls,
    close: () => {
      closing ??= (async () => {
        modulesStarted?.cancel();
        // Live sockets would hold the HTTP server open; operators reconnect to another replica.
        await realtime?.close();
        for (const module of MODULES) await module.stop?.(moduleContext!);
        await Promise.all(servers.map((s) => s.close()));
        await runtime.close();
        await notifications.close();
        await webhookTransport.close();
        await contractReader.close();
      })();
      return closing;
    },
  };
}

/** Retries `start` every second (for up to two minutes) until it succeeds; cancellable on shutdown. */
function startWhenSidecarReady(start: () => Promise<void>, logger: Logger): { cancel(): void } {
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = (left: number) => {
    if (cancelled) return;
    start().then(
      () => logger.info("modules started"),
      (error) => {
        if (left <= 1) return logger.error({ err: error }, "modules could not start");
        logger.warn({ err: error }, "modules not started yet; the sidecar may not be ready");
        timer = setTimeout(() => attempt(left - 1), 1_000);
      },
    );
  };
  attempt(120);
  return {
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}

/**
 * What `npm start` prints: the addresses clients use (PUBLIC_BASE_URL, PASSENGER_BASE_URL, which
 * the token audiences are made of, so a URL copied from here is one a token is valid for), and
 * first what answers without a token.
 */
export function startupBanner({
  config,
  runtime,
  urls,
}: Pick<Platform, "config" | "runtime" | "urls">): string {
  const base = config.publicBaseUrl;
  const passengerBase = config.passengerBaseUrl;
  const api = ["identity", "operator-api", "partner-api"].some((s) =>
    config.services.includes(s as ServiceName),
  );
  const lines = [
    `Disruption service is up (${runtime.kind} runtime).`,
    "  Without a token:",
    ...(urls.operator ? [`    health, readiness         GET ${base}/healthz, GET ${base}/readyz`] : []),
    ...(urls.operator && api
      ? [
          `    API documentation         ${base}/docs (OpenAPI: ${base}/openapi/{operator,partner,passenger}/v1.json)`,
        ]
      : []),
    ...(urls.passenger
      ? [`    passenger health          GET ${passengerBase}/healthz, GET ${passengerBase}/readyz`]
      : []),
    "  With a token:",
    ...(urls.operator && api ? [`    operator and partner API  ${base}/v1, ${base}/partner/v1`] : []),
    ...(urls.auth ? [`    identity provider         ${base}/auth/.well-known/openid-configuration`] : []),
    ...(urls.passenger
      ? [
          `    passenger API             ${passengerBase}/v1 (a session: npm run -s passenger:login -- <PNR> <last name>)`,
        ]
      : []),
    "  Demo logins: npm run -s demo:credentials; ready-to-paste token commands: npm run -s demo:credentials -- --commands",
  ];
  return `${lines.join("\n")}\n`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const platform = await startPlatform(config, { logger });
  logger.info({ runtime: platform.runtime.kind, services: config.services, urls: platform.urls }, "started");
  process.stdout.write(startupBanner(platform));

  const shutdown = (signal: string) => {
    logger.info({ signal }, "shutting down: finishing running turns and flushing outboxes");
    platform.close().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    process.stderr.write(
      `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
    );
    process.exit(1);
  });
}
