/**
 * Checks the Dapr files of a repository against what Dapr 1.16 accepts (scripts/dapr-check.shapes.ts):
 * the run files (dapr/dapr.yaml for `dapr run -f`, tye.yaml for `tye run`), every resource file in
 * the resources paths they give their sidecars, and the configuration each sidecar starts with.
 * daprd and the CLI skip much of what they do not understand without a word; this says it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import {
  ACTOR_TARGET_KEYS,
  API_VERSION,
  APP_TARGET_KEYS,
  CIRCUIT_BREAKER_KEYS,
  COMPONENT_KEYS,
  COMPONENT_SHAPES,
  COMPONENT_SPEC_KEYS,
  COMPONENT_TARGET_KEYS,
  CONFIGURATION_SPEC_KEYS,
  type ComponentShape,
  type MetadataType,
  RESILIENCY_POLICY_KINDS,
  RESOURCE_KINDS,
  RETRY_KEYS,
  RUN_FILE_APP_KEYS,
  RUN_FILE_COMMON_KEYS,
  RUN_FILE_KEYS,
} from "./dapr-check.shapes.js";

export interface Finding {
  /** Relative to the checked root. */
  file: string;
  message: string;
}

/** The run files the repository starts its sidecars with, relative to its root. */
export const RUN_FILES = { dapr: "dapr/dapr.yaml", tye: "tye.yaml" } as const;

/** src/main.ts registers the actor types only in the app whose SERVICES include this one. */
const ACTOR_HOST_SERVICE = "workers";

/**
 * The pub/sub components of src/config.ts (DAPR_PUBSUB_NAME, DAPR_REPLICA_PUBSUB_NAME): one shared
 * by an app's replicas, one read by every replica on its own, which the services below subscribe
 * through (their real-time fan-out: services/realtime/fan-out-subscriptions.ts for the operators'
 * WebSocket, services/passenger-api/passenger-event-subscriptions.ts for the passengers' streams).
 */
const SHARED_PUBSUB = "pubsub";
const REPLICA_PUBSUB = "pubsub-replicas";
const EVERY_REPLICA_SERVICES = ["operator-api", "passenger-api"];
/** daprd 1.16 gives each sidecar its own value for these when it loads a component. */
const PER_SIDECAR = /\{uuid\}|\{podName\}/;

type Json = Record<string, unknown>;

/** One app id a run file starts, with what its sidecar reads. */
interface App {
  id: string;
  services: string[];
  resourcesPaths: string[];
  configFile: string | undefined;
  /** Where the sidecar runs, which relative paths inside components (a secrets file) start from. */
  workingDir: string;
  /**
   * The APP_ID the app process starts with: the app names its per-app dead-letter topics and its
   * consumer group after it (src/runtime/dapr/event-bus.ts), so it must be the sidecar's app id.
   */
  appIdEnv: string | undefined;
}

interface RunFile {
  file: string;
  apps: App[];
}

interface Resource {
  file: string;
  doc: Json;
}

export function checkDaprFiles(root: string): Finding[] {
  const findings = new Map<string, Finding>();
  const report = (file: string, message: string) => {
    const relative = path.relative(root, file) || ".";
    findings.set(`${relative}\0${message}`, { file: relative, message });
  };

  const runFiles: RunFile[] = [];
  const daprRunFile = path.join(root, RUN_FILES.dapr);
  if (existsSync(daprRunFile)) runFiles.push(readDaprRunFile(daprRunFile, report));
  else report(daprRunFile, "missing: `dapr run -f` has nothing to start");
  const tyeFile = path.join(root, RUN_FILES.tye);
  if (existsSync(tyeFile)) runFiles.push(readTyeFile(tyeFile, report));

  const resources = new Map<string, Resource[]>();
  const resourcesIn = (dir: string): Resource[] => {
    let found = resources.get(dir);
    if (!found) {
      found = readResourceDir(dir, report);
      for (const resource of found) checkResource(resource, report);
      resources.set(dir, found);
    }
    return found;
  };
  for (const runFile of runFiles) checkRunFileResources(runFile, resourcesIn, report);
  checkConfigurations(runFiles, report);
  checkStrayResources(root, runFiles, report);
  checkSameApps(runFiles, report);

  return [...findings.values()].sort(
    (a, b) => a.file.localeCompare(b.file) || a.message.localeCompare(b.message),
  );
}

type Report = (file: string, message: string) => void;

// ---- run files ----

function readDaprRunFile(file: string, report: Report): RunFile {
  const doc = readYaml(file, report);
  const runFile: RunFile = { file, apps: [] };
  if (!doc) return runFile;
  const base = path.dirname(file);
  unknownKeys(doc, RUN_FILE_KEYS, "", file, report, "`dapr run -f` ignores it");
  if (!Number.isInteger(doc.version) || (doc.version as number) < 1) {
    report(file, "`version` is required (a positive integer)");
  }
  const common = asObject(doc.common);
  unknownKeys(common, RUN_FILE_COMMON_KEYS, "common.", file, report, "`dapr run -f` ignores it");
  const commonPaths = resourcesPathsOf(common, base);
  const commonConfig =
    typeof common.configFilePath === "string" ? path.resolve(base, common.configFilePath) : undefined;
  const commonEnv = asObject(common.env);
  const apps = Array.isArray(doc.apps) ? doc.apps : [];
  if (apps.length === 0) report(file, "`apps` lists no app");
  apps.forEach((entry, index) => {
    const app = asObject(entry);
    const where = `apps[${index}]`;
    unknownKeys(app, RUN_FILE_APP_KEYS, `${where}.`, file, report, "`dapr run -f` ignores it");
    if (typeof app.appDirPath !== "string") {
      report(file, `${where}.appDirPath is required`);
      return;
    }
    const appDir = path.resolve(base, app.appDirPath);
    if (!isDirectory(appDir)) report(file, `${where}.appDirPath ${app.appDirPath} is not a directory`);
    const id = typeof app.appID === "string" ? app.appID : path.basename(appDir);
    const ownPaths = resourcesPathsOf(app, appDir);
    const localResources = path.join(appDir, ".dapr", "resources");
    const localConfig = path.join(appDir, ".dapr", "config.yaml");
    if (ownPaths.length === 0 && isDirectory(localResources)) {
      report(file, `${id}: ${path.relative(base, localResources)} exists and replaces common.resourcesPaths`);
    }
    if (typeof app.configFilePath !== "string" && existsSync(localConfig)) {
      report(file, `${id}: ${path.relative(base, localConfig)} exists and replaces common.configFilePath`);
    }
    const env = { ...commonEnv, ...asObject(app.env) };
    runFile.apps.push({
      // `dapr run` sets APP_ID to the app id for the app, and the run file's env after it.
      appIdEnv: typeof env.APP_ID === "string" ? env.APP_ID : id,
      id,
      services: servicesOf(env.SERVICES),
      resourcesPaths: ownPaths.length > 0 ? ownPaths : commonPaths,
      configFile:
        typeof app.configFilePath === "string" ? path.resolve(appDir, app.configFilePath) : commonConfig,
      workingDir: appDir,
    });
  });
  checkApps(runFile, report);
  return runFile;
}

function readTyeFile(file: string, report: Report): RunFile {
  const doc = readYaml(file, report);
  const runFile: RunFile = { file, apps: [] };
  if (!doc) return runFile;
  const base = path.dirname(file);
  const dapr = (Array.isArray(doc.extensions) ? doc.extensions : [])
    .map(asObject)
    .find((extension) => extension.name === "dapr");
  if (!dapr) {
    report(file, "no `dapr` extension: `tye run` starts the services without sidecars");
    return runFile;
  }
  const componentsPath = dapr["components-path"];
  if (typeof componentsPath !== "string") {
    report(file, "the dapr extension sets no `components-path`: the sidecars read ~/.dapr/components");
  }
  const resourcesDir = path.resolve(base, typeof componentsPath === "string" ? componentsPath : "components");
  let configFile: string | undefined;
  if (typeof dapr.config === "string") {
    // The extension looks the configuration up by name, as <components-path>/<config>.yaml.
    configFile = path.join(resourcesDir, `${dapr.config}.yaml`);
    if (!existsSync(configFile)) {
      report(
        file,
        `the dapr extension looks for config \`${dapr.config}\` as ${path.relative(base, configFile)}: not found, the sidecars start without it`,
      );
      configFile = undefined;
    }
  }
  for (const entry of Array.isArray(doc.services) ? doc.services : []) {
    const service = asObject(entry);
    if (typeof service.name !== "string") continue;
    if (typeof service.executable !== "string" && typeof service.project !== "string") continue;
    const bindings = (Array.isArray(service.bindings) ? service.bindings : []).map(asObject);
    const http =
      bindings.find((binding) => binding.protocol === "http") ??
      (bindings.length === 1 && bindings[0]?.protocol === undefined ? bindings[0] : undefined);
    if (!http) continue;
    const env = Object.fromEntries(
      (Array.isArray(service.env) ? service.env : []).map(asObject).map((pair) => [pair.name, pair.value]),
    );
    runFile.apps.push({
      // The extension gives the app process the sidecar's ports only, not its app id.
      appIdEnv: typeof env.APP_ID === "string" ? env.APP_ID : undefined,
      id: service.name,
      services: servicesOf(env.SERVICES),
      resourcesPaths: [resourcesDir],
      configFile,
      workingDir: base,
    });
  }
  checkApps(runFile, report);
  return runFile;
}

function checkApps(runFile: RunFile, report: Report): void {
  const seen = new Set<string>();
  for (const app of runFile.apps) {
    if (seen.has(app.id)) report(runFile.file, `app id ${app.id} is started twice`);
    seen.add(app.id);
    for (const dir of app.resourcesPaths) {
      if (!isDirectory(dir)) report(runFile.file, `${app.id}: resources path ${dir} is not a directory`);
    }
    if (app.appIdEnv === undefined) {
      report(runFile.file, `${app.id}: no APP_ID: the app would not know its sidecar's app id (${app.id})`);
    } else if (app.appIdEnv !== app.id) {
      report(runFile.file, `${app.id}: APP_ID is ${app.appIdEnv}, not the sidecar's app id ${app.id}`);
    }
    if (app.configFile && !existsSync(app.configFile)) {
      report(runFile.file, `${app.id}: configuration ${app.configFile} not found`);
    }
  }
}

function resourcesPathsOf(section: Json, base: string): string[] {
  const paths = Array.isArray(section.resourcesPaths) ? section.resourcesPaths.map(String) : [];
  if (typeof section.resourcesPath === "string") paths.push(section.resourcesPath);
  return paths.map((dir) => path.resolve(base, dir));
}

function servicesOf(value: unknown): string[] {
  return typeof value === "string" ? value.split(",").map((service) => service.trim()) : [];
}

function checkSameApps(runFiles: RunFile[], report: Report): void {
  const [first, ...others] = runFiles;
  if (!first) return;
  const ids = (runFile: RunFile) => runFile.apps.map((app) => `${app.id}(${app.services.join(",")})`).sort();
  for (const other of others) {
    const mine = ids(first).join(" ");
    const theirs = ids(other).join(" ");
    if (mine !== theirs) {
      report(
        other.file,
        `starts ${theirs || "no app"}, not the apps of ${path.basename(first.file)}: ${mine}`,
      );
    }
  }
}

// ---- resource files ----

function readResourceDir(dir: string, report: Report): Resource[] {
  if (!isDirectory(dir)) return [];
  const found: Resource[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (!/\.ya?ml$/.test(name) || !statSync(file).isFile()) continue;
    for (const doc of readYamlDocuments(file, report)) found.push({ file, doc });
  }
  return found;
}

function checkResource({ file, doc }: Resource, report: Report): void {
  if (doc.apiVersion !== API_VERSION) {
    report(
      file,
      `apiVersion ${String(doc.apiVersion)}: daprd reads only ${API_VERSION} and skips this document`,
    );
    return;
  }
  const name = asObject(doc.metadata).name;
  if (typeof name !== "string" || name === "" || name === "." || name === ".." || /[/%]/.test(name)) {
    report(file, `${String(doc.kind)}: metadata.name must be a name without / or %`);
  }
  switch (doc.kind) {
    case "Component":
      checkComponent(file, doc, report);
      break;
    case "Resiliency":
      checkResiliency(file, doc, report);
      break;
    case "Configuration":
      break;
    default:
      if (!(RESOURCE_KINDS as readonly unknown[]).includes(doc.kind)) {
        report(file, `kind ${String(doc.kind)}: daprd reads no such resource and skips it`);
      }
  }
}

function checkComponent(file: string, doc: Json, report: Report): void {
  const name = String(asObject(doc.metadata).name);
  unknownKeys(doc, COMPONENT_KEYS, `${name}: `, file, report, "daprd ignores it");
  const spec = asObject(doc.spec);
  unknownKeys(spec, COMPONENT_SPEC_KEYS, `${name}: spec.`, file, report, "daprd ignores it");
  if (doc.scopes !== undefined && !isStringList(doc.scopes))
    report(file, `${name}: scopes must list app ids`);
  const type = String(spec.type);
  const shape = COMPONENT_SHAPES[type];
  if (!shape) {
    report(file, `${name}: component type ${type} is not described in scripts/dapr-check.shapes.ts`);
    return;
  }
  if (spec.version !== shape.version)
    report(file, `${name}: spec.version must be ${shape.version} for ${type}`);
  const entries = metadataEntries(spec.metadata);
  const set = new Set<string>();
  for (const entry of entries) {
    const key = knownKey(shape, entry.name);
    if (set.has(entry.name.toLowerCase())) report(file, `${name}: metadata ${entry.name} is set twice`);
    set.add(entry.name.toLowerCase());
    if (!key) {
      report(file, `${name}: ${type} reads no metadata \`${entry.name}\` (daprd ignores it)`);
      continue;
    }
    if (entry.secretKeyRef) {
      if (!entry.secretKeyRef.name || !entry.secretKeyRef.key) {
        report(file, `${name}: metadata ${entry.name}: secretKeyRef needs a name and a key`);
      }
    } else if (entry.value === undefined) {
      report(file, `${name}: metadata ${entry.name} has neither a value nor a secretKeyRef`);
    } else {
      checkValue(shape, key, entry.value, `${name}: metadata ${entry.name}`, file, report);
      if (entry.value.includes("{podName}")) {
        report(
          file,
          `${name}: metadata ${entry.name}: daprd outside Kubernetes knows no {podName} and stops`,
        );
      }
    }
  }
  const has = (key: string) => set.has(key.toLowerCase());
  for (const key of shape.required ?? []) {
    if (!has(key)) report(file, `${name}: ${type} requires metadata \`${key}\``);
  }
  for (const group of shape.oneOf ?? []) {
    if (!group.some(has))
      report(file, `${name}: ${type} requires one of ${group.map((k) => `\`${k}\``).join(", ")}`);
  }
  for (const group of shape.exclusive ?? []) {
    if (group.filter(has).length > 1) report(file, `${name}: ${type} takes only one of ${group.join(", ")}`);
  }
}

/** Metadata names are matched without regard to case, as daprd decodes them. */
function knownKey(shape: ComponentShape, name: string): string | undefined {
  return Object.keys(shape.metadata).find((key) => key.toLowerCase() === name.toLowerCase());
}

function checkValue(
  shape: ComponentShape,
  key: string,
  value: string,
  where: string,
  file: string,
  report: Report,
): void {
  const type = shape.metadata[key] as MetadataType;
  if (!VALUE_FORMS[type].test(value)) report(file, `${where}: "${value}" is not a ${type}`);
  const noPort = shape.noPort?.[key];
  if (noPort && /:\d+$/.test(value)) report(file, `${where}: "${value}" carries a port; ${noPort}`);
}

const GO_DURATION = /^-?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$|^-?\d+$|^0$/;
const VALUE_FORMS: Record<MetadataType, RegExp> = {
  string: /^/,
  bool: /^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/,
  number: /^-?\d+$/,
  duration: GO_DURATION,
};

interface MetadataEntry {
  name: string;
  value?: string;
  secretKeyRef?: { name?: string; key?: string };
}

function metadataEntries(metadata: unknown): MetadataEntry[] {
  if (!Array.isArray(metadata)) return [];
  return metadata.map(asObject).map((entry) => {
    const ref = entry.secretKeyRef === undefined ? undefined : asObject(entry.secretKeyRef);
    return {
      name: String(entry.name),
      ...(entry.value === undefined || entry.value === null ? {} : { value: String(entry.value) }),
      ...(ref
        ? {
            secretKeyRef: {
              ...(typeof ref.name === "string" ? { name: ref.name } : {}),
              ...(typeof ref.key === "string" ? { key: ref.key } : {}),
            },
          }
        : {}),
    };
  });
}

function checkResiliency(file: string, doc: Json, report: Report): void {
  const name = String(asObject(doc.metadata).name);
  if (doc.scopes !== undefined && !isStringList(doc.scopes))
    report(file, `${name}: scopes must list app ids`);
  const spec = asObject(doc.spec);
  const policies = asObject(spec.policies);
  unknownKeys(policies, RESILIENCY_POLICY_KINDS, `${name}: spec.policies.`, file, report, "daprd ignores it");
  const timeouts = asObject(policies.timeouts);
  for (const [policy, value] of Object.entries(timeouts)) {
    if (!GO_DURATION.test(String(value)))
      report(file, `${name}: timeout ${policy}: "${value}" is not a duration`);
  }
  const retries = asObject(policies.retries);
  for (const [policy, value] of Object.entries(retries)) {
    const retry = asObject(value);
    unknownKeys(retry, RETRY_KEYS, `${name}: retry ${policy}: `, file, report, "daprd ignores it");
    if (!/^(constant|exponential)$/i.test(String(retry.policy ?? "constant"))) {
      report(file, `${name}: retry ${policy}: policy must be constant or exponential`);
    }
    for (const key of ["duration", "initialInterval", "maxInterval", "maxElapsedTime"]) {
      if (retry[key] !== undefined && !GO_DURATION.test(String(retry[key]))) {
        report(file, `${name}: retry ${policy}: ${key} "${retry[key]}" is not a duration`);
      }
    }
    if (retry.maxRetries !== undefined && !Number.isInteger(retry.maxRetries)) {
      report(file, `${name}: retry ${policy}: maxRetries must be an integer`);
    }
  }
  const breakers = asObject(policies.circuitBreakers);
  for (const [policy, value] of Object.entries(breakers)) {
    const breaker = asObject(value);
    unknownKeys(
      breaker,
      CIRCUIT_BREAKER_KEYS,
      `${name}: circuit breaker ${policy}: `,
      file,
      report,
      "daprd ignores it",
    );
    for (const key of ["interval", "timeout"]) {
      if (breaker[key] !== undefined && !GO_DURATION.test(String(breaker[key]))) {
        report(file, `${name}: circuit breaker ${policy}: ${key} "${breaker[key]}" is not a duration`);
      }
    }
  }
  const targets = asObject(spec.targets);
  unknownKeys(
    targets,
    ["apps", "actors", "components"],
    `${name}: spec.targets.`,
    file,
    report,
    "daprd ignores it",
  );
  const refer = (where: string, target: Json, keys: readonly string[]) => {
    unknownKeys(target, keys, `${where}.`, file, report, "daprd ignores it");
    const missing = (kind: Json, key: string) =>
      typeof target[key] === "string" && !(String(target[key]) in kind);
    if (missing(timeouts, "timeout")) report(file, `${where}: no timeout policy ${target.timeout}`);
    if (missing(retries, "retry")) report(file, `${where}: no retry policy ${target.retry}`);
    if (missing(breakers, "circuitBreaker"))
      report(file, `${where}: no circuit breaker ${target.circuitBreaker}`);
  };
  for (const [app, target] of Object.entries(asObject(targets.apps))) {
    refer(`${name}: targets.apps.${app}`, asObject(target), APP_TARGET_KEYS);
  }
  for (const [actor, value] of Object.entries(asObject(targets.actors))) {
    const target = asObject(value);
    refer(`${name}: targets.actors.${actor}`, target, ACTOR_TARGET_KEYS);
    if (target.circuitBreaker !== undefined && !/^(type|id|both)$/.test(String(target.circuitBreakerScope))) {
      report(
        file,
        `${name}: targets.actors.${actor}: a circuit breaker needs circuitBreakerScope type, id or both`,
      );
    }
  }
  for (const [component, value] of Object.entries(asObject(targets.components))) {
    const target = asObject(value);
    unknownKeys(
      target,
      ["inbound", "outbound"],
      `${name}: targets.components.${component}.`,
      file,
      report,
      "daprd ignores it",
    );
    for (const direction of ["inbound", "outbound"]) {
      if (target[direction] === undefined) continue;
      refer(
        `${name}: targets.components.${component}.${direction}`,
        asObject(target[direction]),
        COMPONENT_TARGET_KEYS,
      );
    }
  }
}

// ---- what each app's sidecar loads ----

function checkRunFileResources(
  runFile: RunFile,
  resourcesIn: (dir: string) => Resource[],
  report: Report,
): void {
  const appIds = new Set(runFile.apps.map((app) => app.id));
  const runFileName = path.basename(runFile.file);
  const all = new Set<Resource>();
  for (const app of runFile.apps) {
    const loaded = app.resourcesPaths
      .flatMap(resourcesIn)
      .filter(({ doc }) => doc.apiVersion === API_VERSION);
    for (const resource of loaded) all.add(resource);
    const components = loaded.filter(({ doc }) => doc.kind === "Component" && appliesTo(doc, app.id));
    checkComponentsOf(app, components, runFileName, report);
  }
  for (const { file, doc } of all) {
    const name = String(asObject(doc.metadata).name);
    for (const scope of isStringList(doc.scopes) ? doc.scopes : []) {
      if (!appIds.has(scope)) report(file, `${name}: scope ${scope} names no app id of ${runFileName}`);
    }
    if (doc.kind !== "Resiliency") continue;
    const targets = asObject(asObject(doc.spec).targets);
    for (const app of Object.keys(asObject(targets.apps))) {
      if (!appIds.has(app)) report(file, `${name}: targets.apps.${app} names no app id of ${runFileName}`);
    }
    const componentNames = new Set(
      [...all].filter((r) => r.doc.kind === "Component").map((r) => asObject(r.doc.metadata).name),
    );
    for (const component of Object.keys(asObject(targets.components))) {
      if (!componentNames.has(component))
        report(file, `${name}: targets.components.${component} names no component`);
    }
  }
}

function checkComponentsOf(app: App, components: Resource[], runFileName: string, report: Report): void {
  const byName = new Map<string, Resource>();
  for (const resource of components) {
    const name = String(asObject(resource.doc.metadata).name);
    if (byName.has(name))
      report(resource.file, `${name}: a second component of that name loads in ${app.id}`);
    byName.set(name, resource);
  }
  const actorStores = components.filter(({ doc }) => {
    const spec = asObject(doc.spec);
    if (!String(spec.type).startsWith("state.")) return false;
    const entry = metadataEntries(spec.metadata).find((e) => e.name.toLowerCase() === "actorstatestore");
    return entry?.value !== undefined && /^(y|yes|true|t|on|1)$/i.test(entry.value);
  });
  if (actorStores.length > 1) {
    const names = actorStores.map(({ doc }) => asObject(doc.metadata).name).join(", ");
    report(
      sidecarFile(runFileName, actorStores),
      `${app.id}: daprd refuses a second actor state store (${names})`,
    );
  }
  if (app.services.includes(ACTOR_HOST_SERVICE) && actorStores.length === 0) {
    report(
      sidecarFile(runFileName, components),
      `${app.id} hosts the actors (SERVICES=${ACTOR_HOST_SERVICE}) but no state store with actorStateStore: true loads in its sidecar`,
    );
  }
  checkConsumerGroups(app, byName, sidecarFile(runFileName, components), report);
  for (const { file, doc } of components) {
    const name = String(asObject(doc.metadata).name);
    const spec = asObject(doc.spec);
    const refs = metadataEntries(spec.metadata).filter((entry) => entry.secretKeyRef?.name);
    if (refs.length === 0) continue;
    const storeName = String(asObject(doc.auth).secretStore ?? "kubernetes");
    const store = byName.get(storeName);
    if (!store || !String(asObject(store.doc.spec).type).startsWith("secretstores.")) {
      report(file, `${name}: secret store ${storeName} does not load in ${app.id}`);
      continue;
    }
    const secrets = localSecrets(store, app, report);
    if (!secrets) continue;
    const shape = COMPONENT_SHAPES[String(spec.type)];
    for (const entry of refs) {
      const secretName = entry.secretKeyRef?.name as string;
      const secret = secrets.get(secretName);
      if (secret === undefined) {
        report(file, `${name}: metadata ${entry.name}: secret ${secretName} is not in ${storeName}`);
        continue;
      }
      const key = shape && knownKey(shape, entry.name);
      if (shape && key)
        checkValue(
          shape,
          key,
          secret,
          `${name}: metadata ${entry.name} (secret ${secretName})`,
          file,
          report,
        );
    }
  }
}

/**
 * The replicas of an app share a consumer group on the shared pub/sub component (one of them
 * handles each event), and each has its own on the every-replica one (each gets every event).
 */
function checkConsumerGroups(app: App, byName: Map<string, Resource>, sidecar: string, report: Report): void {
  const consumerID = (resource: Resource) =>
    metadataEntries(asObject(resource.doc.spec).metadata).find((e) => e.name.toLowerCase() === "consumerid")
      ?.value ?? "{appID}";
  const shared = byName.get(SHARED_PUBSUB);
  if (shared && PER_SIDECAR.test(consumerID(shared))) {
    report(
      shared.file,
      `${SHARED_PUBSUB}: consumerID "${consumerID(shared)}" gives each sidecar a group of its own: every replica of ${app.id} would handle every event`,
    );
  }
  const fansOut = EVERY_REPLICA_SERVICES.find((service) => app.services.includes(service));
  if (!fansOut) return;
  const replica = byName.get(REPLICA_PUBSUB);
  if (!replica) {
    report(
      sidecar,
      `${app.id} fans events out on every replica (SERVICES=${fansOut}) but no component ${REPLICA_PUBSUB} loads in its sidecar`,
    );
  } else if (!PER_SIDECAR.test(consumerID(replica))) {
    report(
      replica.file,
      `${REPLICA_PUBSUB}: consumerID "${consumerID(replica)}" is one group for all replicas of ${app.id}: only one would get each event`,
    );
  }
}

/** The findings about a whole sidecar are reported against the first resource that loads in it. */
function sidecarFile(runFileName: string, resources: Resource[]): string {
  return resources[0]?.file ?? runFileName;
}

/** The secrets of a local-file secret store, flattened with its separator as daprd does. */
function localSecrets(store: Resource, app: App, report: Report): Map<string, string> | undefined {
  const spec = asObject(store.doc.spec);
  if (spec.type !== "secretstores.local.file") return undefined;
  const entries = metadataEntries(spec.metadata);
  const fileEntry = entries.find((entry) => entry.name === "secretsFile")?.value;
  if (!fileEntry) return undefined;
  const separator = entries.find((entry) => entry.name === "nestedSeparator")?.value ?? ":";
  const secretsFile = path.resolve(app.workingDir, fileEntry);
  if (!existsSync(secretsFile)) {
    report(
      store.file,
      `${asObject(store.doc.metadata).name}: secretsFile ${fileEntry} not found from ${app.workingDir}`,
    );
    return undefined;
  }
  const secrets = new Map<string, string>();
  const flatten = (value: unknown, prefix: string) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value))
        flatten(inner, prefix ? `${prefix}${separator}${key}` : key);
    } else {
      secrets.set(prefix, String(value));
    }
  };
  try {
    flatten(JSON.parse(readFileSync(secretsFile, "utf8")), "");
  } catch (error) {
    report(secretsFile, `not JSON: ${(error as Error).message}`);
    return undefined;
  }
  return secrets;
}

function appliesTo(doc: Json, appId: string): boolean {
  return !isStringList(doc.scopes) || doc.scopes.length === 0 || doc.scopes.includes(appId);
}

// ---- configurations and files no sidecar reads ----

function checkConfigurations(runFiles: RunFile[], report: Report): void {
  const files = new Set(runFiles.flatMap((runFile) => runFile.apps.map((app) => app.configFile)));
  for (const file of files) {
    if (!file || !existsSync(file)) continue;
    const docs = readYamlDocuments(file, report);
    const doc = docs[0];
    if (docs.length !== 1 || !doc || doc.kind !== "Configuration" || doc.apiVersion !== API_VERSION) {
      report(file, `a sidecar's configuration must be one ${API_VERSION} Configuration document`);
      continue;
    }
    const spec = asObject(doc.spec);
    unknownKeys(spec, CONFIGURATION_SPEC_KEYS, "spec.", file, report, "daprd ignores it");
    for (const feature of Array.isArray(spec.features) ? spec.features.map(asObject) : []) {
      if (typeof feature.name !== "string" || typeof feature.enabled !== "boolean") {
        report(file, "spec.features: each needs a name and enabled: true|false");
      }
    }
  }
}

/** daprd reads resources only from its resources paths; one beside them is never loaded. */
function checkStrayResources(root: string, runFiles: RunFile[], report: Report): void {
  const resourceDirs = new Set(
    runFiles.flatMap((runFile) => runFile.apps.flatMap((app) => app.resourcesPaths)),
  );
  const configFiles = new Set(runFiles.flatMap((runFile) => runFile.apps.map((app) => app.configFile)));
  const runFilePaths = new Set(Object.values(RUN_FILES).map((file) => path.join(root, file)));
  const dirs = new Set([...resourceDirs, ...[...runFilePaths].map((file) => path.dirname(file))]);
  const pathsNote = [...resourceDirs].map((dir) => path.relative(root, dir) || ".").join(", ") || "none";
  for (const dir of dirs) {
    if (!isDirectory(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (!/\.ya?ml$/.test(name) || runFilePaths.has(file) || !statSync(file).isFile()) continue;
      for (const doc of readYamlDocuments(file, () => {})) {
        if (doc.apiVersion !== API_VERSION) continue;
        if ((RESOURCE_KINDS as readonly unknown[]).includes(doc.kind) && !resourceDirs.has(dir)) {
          report(file, `${String(doc.kind)} outside the resources paths (${pathsNote}): no sidecar loads it`);
        }
        if (doc.kind === "Configuration" && !configFiles.has(file)) {
          report(file, "Configuration no run file starts a sidecar with");
        }
      }
    }
  }
}

// ---- reading ----

function readYaml(file: string, report: Report): Json | undefined {
  try {
    return asObject(parse(readFileSync(file, "utf8")));
  } catch (error) {
    report(file, `not YAML: ${(error as Error).message}`);
    return undefined;
  }
}

function readYamlDocuments(file: string, report: Report): Json[] {
  const docs: Json[] = [];
  for (const document of parseAllDocuments(readFileSync(file, "utf8"))) {
    const [error] = document.errors;
    if (error) {
      report(file, `not YAML: ${error.message}`);
      continue;
    }
    const value = document.toJS();
    if (value !== null && value !== undefined) docs.push(asObject(value));
  }
  return docs;
}

function unknownKeys(
  object: Json,
  known: readonly string[],
  prefix: string,
  file: string,
  report: Report,
  consequence: string,
): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) report(file, `${prefix}${key} is unknown (${consequence})`);
  }
}

function asObject(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isDirectory(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory();
}
