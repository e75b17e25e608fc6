import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkDaprFiles, type Finding } from "../../scripts/dapr-check.checks.js";
import { defaultRetryPolicy } from "../../src/runtime/event-bus.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const fixtures: string[] = [];

/** A copy of the repository's Dapr files with one change. */
function checkCopy(change: (dir: string) => void): Finding[] {
  const dir = mkdtempSync(path.join(tmpdir(), "dapr-check-"));
  fixtures.push(dir);
  for (const entry of ["components", "dapr", "tye.yaml"]) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  change(dir);
  return checkDaprFiles(dir);
}

/** Replaces text that must be there, so a fixture cannot go stale without failing. */
function edit(dir: string, file: string, from: string, to: string): void {
  const target = path.join(dir, file);
  const text = readFileSync(target, "utf8");
  if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}`);
  writeFileSync(target, text.replace(from, to));
}

function messages(findings: Finding[]): string[] {
  return findings.map(({ file, message }) => `${file}: ${message}`);
}

afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

describe("dapr-check", () => {
  it("finds nothing in the repository's own Dapr files", () => {
    expect(messages(checkDaprFiles(ROOT))).toEqual([]);
  });

  // One edit of one file of a copy each, and every finding it must give, in order.
  it.each([
    {
      finding: "a scope naming no app id of the run files",
      file: "components/pubsub-redis.yaml",
      from: "  - workers",
      to: "  - workers\n  - booking-api",
      expected: [
        "components/pubsub-redis.yaml: pubsub: scope booking-api names no app id of dapr.yaml",
        "components/pubsub-redis.yaml: pubsub: scope booking-api names no app id of tye.yaml",
      ],
    },
    {
      finding: "a missing required metadata key",
      file: "components/pubsub-redis.yaml",
      from: "    - name: redisHost\n      value: localhost:6379\n",
      to: "",
      expected: ["components/pubsub-redis.yaml: pubsub: pubsub.redis requires metadata `redisHost`"],
    },
    {
      finding: "metadata the component does not read",
      file: "components/pubsub-redis.yaml",
      from: '    - name: enableTLS\n      value: "false"\n',
      to: '    - name: enableTLS\n      value: "false"\n    - name: maxRetries\n      value: "8"\n',
      expected: [
        "components/pubsub-redis.yaml: pubsub: pubsub.redis reads no metadata `maxRetries` (daprd ignores it)",
      ],
    },
    {
      finding: "a resiliency target naming no policy",
      file: "components/resiliency.yaml",
      from: "timeout: actorCall",
      to: "timeout: actorTurn",
      expected: [
        "components/resiliency.yaml: disruption-resiliency: targets.actors.CaseActor: no timeout policy actorTurn",
      ],
    },
    {
      finding: "an APP_ID in dapr.yaml's env that overrides the one `dapr run` sets",
      file: "dapr/dapr.yaml",
      from: "      SERVICES: workers\n",
      to: "      SERVICES: workers\n      APP_ID: worker\n",
      expected: ["dapr/dapr.yaml: workers: APP_ID is worker, not the sidecar's app id workers"],
    },
    {
      finding: "a run file the dapr CLI would not read as written",
      file: "dapr/dapr.yaml",
      from: "version: 1\ncommon:",
      to: "common:\n  resourcePath: x",
      expected: [
        "dapr/dapr.yaml: `version` is required (a positive integer)",
        "dapr/dapr.yaml: common.resourcePath is unknown (`dapr run -f` ignores it)",
      ],
    },
  ])("reports $finding", ({ file, from, to, expected }) => {
    expect(messages(checkCopy((dir) => edit(dir, file, from, to)))).toEqual(expected);
  });

  it("reports MongoDB's `server` field given a host and port", () => {
    const findings = checkCopy((dir) =>
      edit(dir, "components/statestore-mongodb.yaml", "- name: host", "- name: server"),
    );
    expect(messages(findings)).toEqual([
      expect.stringMatching(/statestore-mongodb.yaml: .*metadata server: "localhost:27017" carries a port/),
    ]);
  });

  it("reports `host` and `server` set together, and neither", () => {
    const both = checkCopy((dir) =>
      edit(
        dir,
        "components/statestore-mongodb.yaml",
        "    - name: databaseName",
        "    - name: server\n      value: db.example.com\n    - name: databaseName",
      ),
    );
    expect(messages(both)).toEqual([expect.stringMatching(/takes only one of host, server/)]);
    const neither = checkCopy((dir) =>
      edit(dir, "components/statestore-mongodb.yaml", "    - name: host\n      value: localhost:27017\n", ""),
    );
    expect(messages(neither)).toEqual([expect.stringMatching(/requires one of `host`, `server`/)]);
  });

  it("reports a resiliency file outside the resources paths", () => {
    const findings = checkCopy((dir) =>
      renameSync(path.join(dir, "components/resiliency.yaml"), path.join(dir, "dapr/resiliency.yaml")),
    );
    expect(messages(findings)).toEqual([
      "dapr/resiliency.yaml: Resiliency outside the resources paths (components): no sidecar loads it",
    ]);
  });

  it("reports tye's configuration looked up where it is not", () => {
    const findings = checkCopy((dir) =>
      renameSync(path.join(dir, "components/disruption-config.yaml"), path.join(dir, "dapr/config.yaml")),
    );
    expect(messages(findings)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^tye.yaml: .*config `disruption-config` as components\/disruption-config.yaml: not found/,
        ),
        "dapr/config.yaml: Configuration no run file starts a sidecar with",
      ]),
    );
  });

  it("reports a second actor state store, and an actor host without one", () => {
    const second = checkCopy((dir) =>
      edit(dir, "components/statestore-mongodb.yaml", 'value: "false"', 'value: "true"'),
    );
    expect(messages(second)).toEqual([
      expect.stringMatching(
        /workers: daprd refuses a second actor state store \(statestore-mongodb, statestore\)/,
      ),
    ]);
    const none = checkCopy((dir) =>
      edit(dir, "components/statestore-redis.yaml", "  - passenger-api\n  - workers", "  - passenger-api"),
    );
    expect(messages(none)).toEqual([
      expect.stringMatching(/workers hosts the actors .* no state store with actorStateStore: true/),
    ]);
  });

  it("reports a secret the secret store does not have", () => {
    const findings = checkCopy((dir) => writeFileSync(path.join(dir, "components/secrets.local.json"), "{}"));
    expect(messages(findings)).toEqual(
      expect.arrayContaining([
        "components/statestore-redis.yaml: statestore: metadata redisPassword: secret redis-password is not in secretstore-local",
      ]),
    );
  });

  it("reports a tye service whose APP_ID is missing or not its sidecar's app id", () => {
    const missing = checkCopy((dir) => edit(dir, "tye.yaml", "{ name: APP_ID, value: identity }, ", ""));
    expect(messages(missing)).toEqual([
      "tye.yaml: identity: no APP_ID: the app would not know its sidecar's app id (identity)",
    ]);
    const wrong = checkCopy((dir) =>
      edit(dir, "tye.yaml", "{ name: APP_ID, value: workers }", "{ name: APP_ID, value: worker }"),
    );
    expect(messages(wrong)).toEqual([
      "tye.yaml: workers: APP_ID is worker, not the sidecar's app id workers",
    ]);
  });

  it("has daprd deliver an event as often as the embedded bus does before dead-lettering it", () => {
    const resiliency = parse(readFileSync(path.join(ROOT, "components/resiliency.yaml"), "utf8"));
    const inbound = resiliency.spec.targets.components.pubsub.inbound.retry;
    // daprd 1.16: `maxRetries` counts the retries after the first delivery.
    expect(resiliency.spec.policies.retries[inbound].maxRetries + 1).toBe(defaultRetryPolicy.maxAttempts);
  });

  it("reports an every-replica component that one consumer group serves, or that operator-api does not load", () => {
    // Both apps that fan events out to their own connections (operators', passengers') read it.
    const shared = checkCopy((dir) =>
      edit(dir, "components/pubsub-replicas.yaml", 'value: "{appID}-{uuid}"', 'value: "{appID}"'),
    );
    expect(messages(shared)).toEqual([
      'components/pubsub-replicas.yaml: pubsub-replicas: consumerID "{appID}" is one group for all replicas of operator-api: only one would get each event',
      'components/pubsub-replicas.yaml: pubsub-replicas: consumerID "{appID}" is one group for all replicas of passenger-api: only one would get each event',
    ]);
    const unscoped = checkCopy((dir) =>
      edit(dir, "components/pubsub-replicas.yaml", "  - operator-api", "  - workers"),
    );
    expect(messages(unscoped)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /operator-api fans events out on every replica .* no component pubsub-replicas loads/,
        ),
      ]),
    );
  });

  it("reports a shared pub/sub component with a consumer group per sidecar, and {podName} outside Kubernetes", () => {
    const perSidecar = checkCopy((dir) =>
      edit(dir, "components/pubsub-redis.yaml", 'value: "{appID}"', 'value: "{appID}-{podName}"'),
    );
    expect(messages(perSidecar)).toEqual(
      expect.arrayContaining([
        "components/pubsub-redis.yaml: pubsub: metadata consumerID: daprd outside Kubernetes knows no {podName} and stops",
        'components/pubsub-redis.yaml: pubsub: consumerID "{appID}-{podName}" gives each sidecar a group of its own: every replica of workers would handle every event',
      ]),
    );
  });
});
