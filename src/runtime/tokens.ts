/**
 * Injection tokens for what the composition root (`src/main.ts`) chooses: the runtime's ports and
 * the adapters beside them. Use cases name these in `@inject(TOKENS.x)`; only main (and test set-ups)
 * bind them. Use-case classes need no token: the class itself is its token.
 */
export const TOKENS = {
  config: Symbol.for("Config"),
  logger: Symbol.for("Logger"),
  clock: Symbol.for("Clock"),
  actors: Symbol.for("ActorRuntime"),
  bus: Symbol.for("EventBus"),
  workflows: Symbol.for("WorkflowEngine"),
  state: Symbol.for("StateStore"),
  documents: Symbol.for("DocumentStore"),
  counters: Symbol.for("CounterStore"),
  runtime: Symbol.for("Runtime"),
  /** The audit log every module writes to (memory or document trail). */
  audit: Symbol.for("AuditLog"),
  /** Airlines, airports, users and partner registrations (the demo directory or a real one). */
  directory: Symbol.for("Directory"),
  /** Where flight-state messages come from (spec 6.3), when FLIGHT_STATE_SOURCE names one. */
  flightStateSource: Symbol.for("FlightStateSource"),
  /** Where an airline's broker delivers disruption pushes, when DISRUPTION_PUSH_BINDING names one. */
  disruptionPushBinding: Symbol.for("DisruptionPushBinding"),
  /** The passenger identity component: PNR login, sessions, captcha. */
  passengers: Symbol.for("PassengerIdentity"),
  /** Where PNR login looks passengers up; the case projection writes to it. */
  passengerLogins: Symbol.for("PassengerLogins"),
  /** The latest allocation wave of a case, for the case detail (waves build on cases). */
  latestWave: Symbol.for("LatestWaveLookup"),
  /** Passenger sessions revoked when their case closes. */
  caseRevocations: Symbol.for("CaseRevocations"),
  /** Every tenant's hotel vendor clients, over the transport main chose (simulators or HTTP). */
  vendors: Symbol.for("InventoryVendors"),
  /** The in-process vendor simulators (the demo inventory). */
  vendorSimulators: Symbol.for("VendorSimulators"),
  /** The exchange-rate table waves and searches convert prices with. */
  exchangeRates: Symbol.for("ExchangeRates"),
  /** The card each tenant books with, when it pays by card (spec 4.3). */
  bookingCards: Symbol.for("BookingCards"),
  /** Booking retry settings; the defaults apply when none is bound. */
  bookingSettings: Symbol.for("BookingSettings"),
  /**
   * Which start of which node this process is (src/domain/incarnation.ts), counted at start-up;
   * unbound (a test's one process), the sole incarnation.
   */
  incarnation: Symbol.for("Incarnation"),
  /** Tells passenger groups about offers and vouchers (src/app/notifications/passenger-notifier.ts). */
  passengerNotifier: Symbol.for("PassengerNotifier"),
  /** The notification channels main chose (SMS and messaging providers, e-mail over SMTP). */
  notificationChannels: Symbol.for("NotificationChannels"),
  /** Per channel, the secret its provider signs delivery callbacks with. */
  notificationCallbackSecrets: Symbol.for("NotificationCallbackSecrets"),
  /** Where notifications point passengers (src/app/notifications/notification-settings.ts). */
  notificationSettings: Symbol.for("NotificationSettings"),
  /** Where webhooks are POSTed and their hosts resolved (src/app/webhooks/webhook-transport.ts). */
  webhookTransport: Symbol.for("WebhookTransport"),
  /** What webhook URLs the deployment allows (WEBHOOK_ALLOW_LOOPBACK_HTTP). */
  webhookSettings: Symbol.for("WebhookSettings"),
  /** The ride provider of ground transport, with its callback URL and secret (src/app/transport/ride-booking.ts). */
  rideProvider: Symbol.for("RideProvider"),
  /** Every tenant's wallet issuer account and client (src/vendors/tenant-wallet-issuers.ts). */
  walletIssuers: Symbol.for("WalletIssuers"),
  /** Reads scanned contracts (src/vendors/contract-image-reader.ts); unbound: images are refused. */
  contractImageReader: Symbol.for("ContractImageReader"),
  /** The exception agent's optional language model (src/app/manual-review/agent-advisor.ts). */
  agentAdvisor: Symbol.for("AgentAdvisor"),
} as const;
