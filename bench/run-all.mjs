// Runs every bench script in this folder, one after another (they measure; never run them in parallel).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
// Helpers of other scripts (stats, servers they spawn) are not benchmarks of their own.
const scripts = readdirSync(here).filter(
  (f) => f.endsWith(".ts") && f !== "stats.ts" && !f.endsWith("-server.ts"),
);
let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script}`);
  const run = spawnSync("npx", ["tsx", join(here, script)], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
