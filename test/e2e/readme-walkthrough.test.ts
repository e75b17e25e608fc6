import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";

const run = promisify(execFile);

/**
 * The README's walkthrough, run as a newcomer runs it: its shell blocks in order, in one shell in
 * the project folder, against the service as `npm start` starts it (here on free ports, which the
 * blocks' `localhost:8080` and `localhost:8081` are pointed at), with the case watcher started first
 * in a terminal of its own.
 */
let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(async () => {
  await t?.close();
});

function walkthroughBlocks(): string[] {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Try it:"), readme.indexOf("## Two runtimes"));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe("the README walkthrough", () => {
  it("runs top to bottom as printed", async () => {
    const port = new URL(t.base).port;
    const passengerPort = new URL(t.passengerBase).port;
    const pointed = (block: string) =>
      block
        .replaceAll("localhost:8080", `localhost:${port}`)
        .replaceAll("localhost:8081", `localhost:${passengerPort}`);
    // Vitest sets BASE_URL (Vite's); the newcomer's shell has none.
    const { BASE_URL: _vite, ...shell } = process.env;
    const env = { ...shell, PORT: port, PASSENGER_PORT: passengerPort };
    const blocks = walkthroughBlocks().map(pointed);
    const watchBlock = blocks.find((block) => block.includes("watch:case"));
    expect(watchBlock).toBeDefined();

    // The walkthrough saves the voucher where it runs; a voucher already there is the developer's.
    const voucherWasThere = existsSync("voucher.html");
    const watcher = spawn("bash", ["-c", watchBlock!], { env, detached: true });
    let watched = "";
    watcher.stdout.on("data", (chunk: Buffer) => {
      watched += chunk.toString();
    });
    watcher.stderr.on("data", (chunk: Buffer) => {
      watched += chunk.toString();
    });
    let exited = false;
    watcher.on("exit", () => {
      exited = true;
    });
    try {
      await expect.poll(() => watched, { timeout: 30_000, interval: 100 }).toContain("waiting for urn:case:");

      const script = [
        "set -e",
        ...blocks
          .filter((block) => block !== watchBlock)
          // Marked on stderr for a block that fails, on stdout for one answered with a problem.
          .map(
            (block, index) =>
              `echo "=== README block ${index + 1}"; echo "=== README block ${index + 1}" >&2\n${block}`,
          ),
        `printf '%s\\n' "$TOKEN" "$SUPERVISOR_TOKEN" "$ADMIN_TOKEN" "$PT" "$CASE" "$SUBCASE" "$RESERVATION" "$PAX" "$POLICY" > "$WALKTHROUGH_VARIABLES"`,
      ].join("\n");
      const variablesFile = `${process.env.TMPDIR ?? "/tmp"}/walkthrough-${process.pid}-${Date.now()}.txt`;
      const { stdout } = await run("bash", ["-c", script], {
        env: { ...env, WALKTHROUGH_VARIABLES: variablesFile },
        maxBuffer: 16 * 1024 * 1024,
      });
      // A problem answered anywhere means a step did not do what the README says.
      const problemAt = stdout.indexOf("errors.svc.example");
      const answeredWithProblem =
        problemAt < 0
          ? undefined
          : stdout
              .slice(0, problemAt)
              .match(/=== README block \d+/g)
              ?.at(-1);
      expect(answeredWithProblem, stdout.slice(problemAt - 200, problemAt + 400)).toBeUndefined();
      const variables = readFileSync(variablesFile, "utf8");
      rmSync(variablesFile);
      const [token, supervisor, admin, partner, caseUrn, subCase, reservation, passenger, policy] = variables
        .trim()
        .split("\n");
      for (const jwt of [token, supervisor, admin, partner, passenger]) expect(jwt).toMatch(/^ey/);
      expect(caseUrn).toMatch(/^urn:case:/);
      expect(subCase).toMatch(/^urn:sub-case:/);
      expect(reservation).toMatch(/^urn:reservation:.*:status:confirmed$/);
      expect(policy).toMatch(/^urn:policy:/);
      expect(stdout).toContain('"fencingToken"');
      expect(stdout).toContain(`"caseUrn":"${caseUrn}","caseStatus"`);
      // The passenger walkthrough's accept went through.
      expect(stdout).toMatch(/"status":"RESOLVED","answer":\{"kind":"ACCEPTED"/);

      await expect
        .poll(() => watched, { timeout: 10_000, interval: 100 })
        .toContain('"event":"case:updated"');
      expect(watched).toContain(`"type":"subscribed","caseUrn":"${caseUrn}"`);
    } finally {
      if (!exited) process.kill(-watcher.pid!, "SIGTERM");
      if (!voucherWasThere) rmSync("voucher.html", { force: true });
    }
  }, 180_000);
});
