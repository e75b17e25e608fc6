/**
 * The shapes Dapr 1.16 accepts for the files `npm run dapr:check` reads: component types and their
 * metadata, the Configuration, Resiliency and run-file keys. Only what this repository uses is
 * listed; a component type missing here is reported, so adding one means describing it here.
 */

export type MetadataType = "string" | "bool" | "number" | "duration";

export interface ComponentShape {
  /** `spec.version` daprd resolves for the type. */
  version: string;
  /** Metadata keys the component reads, with the type daprd decodes them to. */
  metadata: Record<string, MetadataType>;
  /** Keys that must be set. */
  required?: readonly string[];
  /** At least one of each group must be set. */
  oneOf?: readonly (readonly string[])[];
  /** No two of each group may be set together. */
  exclusive?: readonly (readonly string[])[];
  /** Keys that take a host without a port (the component adds its own scheme and lookup). */
  noPort?: Record<string, string>;
}

/** Read by daprd itself on every state store, whatever its type. */
const STATE_STORE_KEYS: Record<string, MetadataType> = { actorStateStore: "bool", keyPrefix: "string" };

/** Read by daprd itself on every pub/sub, whatever its type. */
const PUBSUB_KEYS: Record<string, MetadataType> = {
  allowedTopics: "string",
  protectedTopics: "string",
  publishingScopes: "string",
  subscriptionScopes: "string",
};

/** Read by daprd itself on every binding, whatever its type. */
const BINDING_KEYS: Record<string, MetadataType> = { direction: "string", route: "string" };

const TLS_CLIENT: Record<string, MetadataType> = {
  caCert: "string",
  clientCert: "string",
  clientKey: "string",
};

const REDIS_CONNECTION: Record<string, MetadataType> = {
  redisHost: "string",
  redisPassword: "string",
  redisUsername: "string",
  redisType: "string",
  redisDB: "number",
  redisMaxRetries: "number",
  redisMinRetryInterval: "duration",
  redisMaxRetryInterval: "duration",
  enableTLS: "bool",
  clientCert: "string",
  clientKey: "string",
  failover: "bool",
  sentinelMasterName: "string",
  sentinelUsername: "string",
  sentinelPassword: "string",
  dialTimeout: "duration",
  readTimeout: "duration",
  writeTimeout: "duration",
  poolSize: "number",
  poolTimeout: "duration",
  maxConnAge: "duration",
  minIdleConns: "number",
  idleCheckFrequency: "duration",
  idleTimeout: "duration",
  useEntraID: "bool",
};

export const COMPONENT_SHAPES: Record<string, ComponentShape> = {
  "state.redis": {
    version: "v1",
    required: ["redisHost"],
    metadata: { ...REDIS_CONNECTION, ...STATE_STORE_KEYS, ttlInSeconds: "number", queryIndexes: "string" },
  },
  "state.mongodb": {
    version: "v1",
    oneOf: [["host", "server", "connectionString"]],
    exclusive: [["host", "server"]],
    noPort: {
      server: "`server` is the DNS SRV name of a mongodb+srv:// URI, which takes no port: use `host`",
    },
    metadata: {
      ...STATE_STORE_KEYS,
      host: "string",
      server: "string",
      connectionString: "string",
      username: "string",
      password: "string",
      params: "string",
      databaseName: "string",
      collectionName: "string",
      writeConcern: "string",
      readConcern: "string",
      operationTimeout: "duration",
    },
  },
  "pubsub.redis": {
    version: "v1",
    required: ["redisHost"],
    metadata: {
      ...REDIS_CONNECTION,
      ...PUBSUB_KEYS,
      consumerID: "string",
      redeliverInterval: "duration",
      processingTimeout: "duration",
      ackOnError: "bool",
      queueDepth: "number",
      concurrency: "number",
      maxLenApprox: "number",
      streamTTL: "duration",
    },
  },
  "bindings.rabbitmq": {
    version: "v1",
    required: ["host", "queueName"],
    metadata: {
      ...BINDING_KEYS,
      ...TLS_CLIENT,
      host: "string",
      queueName: "string",
      durable: "bool",
      deleteWhenUnused: "bool",
      ttlInSeconds: "number",
      prefetchCount: "number",
      exclusive: "bool",
      maxPriority: "number",
      contentType: "string",
      reconnectWaitInSeconds: "number",
      externalSasl: "bool",
    },
  },
  "bindings.mqtt3": {
    version: "v1",
    required: ["url", "topic", "consumerID"],
    metadata: {
      ...BINDING_KEYS,
      ...TLS_CLIENT,
      url: "string",
      topic: "string",
      consumerID: "string",
      retain: "bool",
      cleanSession: "bool",
      backOffMaxRetries: "number",
    },
  },
  "bindings.kafka": {
    version: "v1",
    required: ["brokers", "authType"],
    metadata: {
      ...BINDING_KEYS,
      brokers: "string",
      topics: "string",
      consumerGroup: "string",
      publishTopic: "string",
      clientID: "string",
      authType: "string",
      saslUsername: "string",
      saslPassword: "string",
      saslMechanism: "string",
      initialOffset: "string",
      maxMessageBytes: "number",
      version: "string",
    },
  },
  "bindings.smtp": {
    version: "v1",
    required: ["host", "port"],
    metadata: {
      ...BINDING_KEYS,
      host: "string",
      port: "number",
      user: "string",
      password: "string",
      skipTLSVerify: "bool",
      emailFrom: "string",
      emailTo: "string",
      emailCC: "string",
      emailBCC: "string",
      subject: "string",
      priority: "number",
    },
  },
  "bindings.twilio.sms": {
    version: "v1",
    required: ["fromNumber", "accountSid", "authToken"],
    metadata: {
      ...BINDING_KEYS,
      toNumber: "string",
      fromNumber: "string",
      accountSid: "string",
      authToken: "string",
      timeout: "duration",
    },
  },
  "secretstores.local.file": {
    version: "v1",
    required: ["secretsFile"],
    metadata: { secretsFile: "string", nestedSeparator: "string", multiValued: "bool" },
  },
};

/** The only apiVersion daprd reads resource files of. */
export const API_VERSION = "dapr.io/v1alpha1";

/** Kinds daprd 1.16 reads from its resources paths; anything else there is skipped. */
export const RESOURCE_KINDS = ["Component", "Resiliency", "Subscription", "HTTPEndpoint"] as const;

export const COMPONENT_KEYS = ["apiVersion", "kind", "metadata", "spec", "auth", "scopes"];
export const COMPONENT_SPEC_KEYS = ["type", "version", "metadata", "ignoreErrors", "initTimeout"];

export const CONFIGURATION_SPEC_KEYS = [
  "appHttpPipeline",
  "httpPipeline",
  "tracing",
  "metric",
  "metrics",
  "mtls",
  "secrets",
  "accessControl",
  "nameResolution",
  "features",
  "api",
  "components",
  "logging",
  "wasm",
  "workflow",
];

export const RESILIENCY_POLICY_KINDS = ["timeouts", "retries", "circuitBreakers"];
export const RETRY_KEYS = [
  "policy",
  "duration",
  "initialInterval",
  "randomizationFactor",
  "multiplier",
  "maxInterval",
  "maxElapsedTime",
  "maxRetries",
  "matching",
];
export const CIRCUIT_BREAKER_KEYS = ["maxRequests", "interval", "timeout", "trip"];
export const APP_TARGET_KEYS = ["timeout", "retry", "circuitBreaker", "circuitBreakerCacheSize"];
export const ACTOR_TARGET_KEYS = [...APP_TARGET_KEYS, "circuitBreakerScope"];
export const COMPONENT_TARGET_KEYS = ["timeout", "retry", "circuitBreaker"];

/** `dapr run -f` keys (dapr/cli run file); the CLI ignores any other key without a word. */
const SHARED_RUN_KEYS = [
  "configFilePath",
  "appProtocol",
  "apiListenAddresses",
  "enableProfiling",
  "logLevel",
  "appMaxConcurrency",
  "placementHostAddress",
  "resourcesPath",
  "resourcesPaths",
  "appSSL",
  "daprHTTPMaxRequestSize",
  "daprHTTPReadBufferSize",
  "enableAppHealthCheck",
  "appHealthCheckPath",
  "appHealthProbeInterval",
  "appHealthProbeTimeout",
  "appHealthThreshold",
  "enableApiLogging",
  "runtimePath",
  "env",
  "daprdLogDestination",
  "appLogDestination",
];
export const RUN_FILE_KEYS = ["version", "name", "common", "apps"];
export const RUN_FILE_COMMON_KEYS = SHARED_RUN_KEYS;
export const RUN_FILE_APP_KEYS = [
  ...SHARED_RUN_KEYS,
  "appID",
  "appDirPath",
  "appChannelAddress",
  "appPort",
  "daprHTTPPort",
  "daprGRPCPort",
  "profilePort",
  "command",
  "metricsPort",
  "unixDomainSocket",
  "daprInternalGRPCPort",
  "containerImage",
  "containerImagePullPolicy",
  "createService",
];
