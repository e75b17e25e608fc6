import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The import rules (.dependency-cruiser.cjs, .dependency-cruiser-folders.cjs) as `npm run lint`
 * runs them: the tree has no violation, and each rule reports an import planted against it in a
 * copy of the tree.
 */

const REPO = resolve(import.meta.dirname, "../..");
const CRUISER = join(REPO, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const CONFIGS = [".dependency-cruiser.cjs", ".dependency-cruiser-folders.cjs"];
const CRUISED = ["src", "actors", "services"];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Every violation both rule files report for the tree at `root`. */
function violationsIn(root: string): Violation[] {
  return CONFIGS.flatMap((config) => {
    const run = spawnSync(
      process.execPath,
      [CRUISER, "--config", join(REPO, config), "--output-type", "json", ...CRUISED],
      { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    if (run.error) throw run.error;
    if (!run.stdout.trim().startsWith("{")) throw new Error(`dependency-cruiser failed: ${run.stderr}`);
    const result = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
    return result.summary.violations;
  });
}

describe("import rules", () => {
  it("find no violation in the tree", () => {
    const found = violationsIn(REPO).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    expect(found).toEqual([]);
  }, 60_000);

  describe("report an import planted against each of them", () => {
    let copy: string;
    let found: Violation[];

    /** Appends `line` to `file` of the copy (a new file if there is none): the planted import. */
    const plant = (file: string, line: string) => {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      appendFileSync(join(copy, file), `\n${line}\n`);
    };

    beforeAll(() => {
      copy = mkdtempSync(join(tmpdir(), "import-rules-"));
      for (const entry of [...CRUISED, "tsconfig.json", "package.json"]) {
        cpSync(join(REPO, entry), join(copy, entry), { recursive: true });
      }
      symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"), "dir");

      plant("src/domain/money.ts", 'import "../app/principals.js";');
      plant("src/runtime/clock.ts", 'import "../../actors/CaseActor.js";');
      plant("actors/CaseActor.ts", 'import "../src/app/cases/case-changes.js";');
      plant("src/app/cases/case-status.ts", 'import "../../http/errors.js";');
      plant("src/workflows/planted.ts", 'import "../app/audit-log.js";');
      plant("src/app/booking/group-booker.ts", 'import "../../vendors/http-transport.js";');
      plant("src/vendors/retry.ts", 'import "../http/problem.js";');
      plant("src/http/pagination.ts", 'import "../identity/token-request.js";');
      plant("src/app/hotel-search.ts", 'import "../config.js";');
      plant("src/domain/geo.ts", 'import "node:fs";');
      plant("services/version-check.ts", 'import "../src/main.js";');
      plant("src/app/cases/intake.ts", 'import "../../runtime/memory/document-store.js";');
      plant("src/domain/urn.ts", 'import "./money.js";');
      plant("src/domain/money.ts", 'import "./urn.js";');
      plant("src/app/cases/case-reads.ts", 'import "../allocation/wave-reads.js";');
      found = violationsIn(copy);
    }, 60_000);

    afterAll(() => {
      if (copy) rmSync(copy, { recursive: true, force: true });
    });

    const reported = (rule: string, from: string, to: string) =>
      found.some((v) => v.rule.name === rule && v.from === from && v.to === to);

    it.each([
      ["domain-points-down", "src/domain/money.ts", "src/app/principals.ts"],
      ["runtime-points-down", "src/runtime/clock.ts", "actors/CaseActor.ts"],
      ["actors-points-down", "actors/CaseActor.ts", "src/app/cases/case-changes.ts"],
      ["app-points-down", "src/app/cases/case-status.ts", "src/http/errors.ts"],
      ["workflows-points-down", "src/workflows/planted.ts", "src/app/audit-log.ts"],
      ["app-points-down", "src/app/booking/group-booker.ts", "src/vendors/http-transport.ts"],
      ["vendors-points-down", "src/vendors/retry.ts", "src/http/problem.ts"],
      ["http-points-down", "src/http/pagination.ts", "src/identity/token-request.ts"],
      ["config-is-read-at-the-top", "src/app/hotel-search.ts", "src/config.ts"],
      // Builtins are reported without their node: prefix.
      ["domain-is-pure", "src/domain/geo.ts", "fs"],
      ["only-main-composes", "src/app/cases/intake.ts", "src/runtime/memory/document-store.ts"],
      ["no-circular", "src/domain/money.ts", "src/domain/urn.ts"],
      ["no-folder-cycle", "src/app/cases", "src/app/allocation"],
    ])("%s: %s -> %s", (rule, from, to) => {
      expect(reported(rule, from, to), JSON.stringify(found, null, 1)).toBe(true);
    });

    it("only-main-composes: nothing imports src/main.ts", () => {
      expect(reported("only-main-composes", "services/version-check.ts", "src/main.ts")).toBe(true);
    });
  });
});
