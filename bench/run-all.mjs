// Runs every `bench:<name>` script of package.json, one after another (they measure; never run them
// in parallel). The other files in this folder are what those scripts share or spawn. The soak runs
// for half an hour (SOAK_MINUTES): it is left out here and run alone, `npm run bench:soak`.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const RUN_ALONE = new Set(["bench:soak"]);

const { scripts } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
let failed = 0;
for (const name of Object.keys(scripts).filter((s) => s.startsWith("bench:"))) {
  if (RUN_ALONE.has(name)) {
    console.log(`\n=== ${name}: skipped, run it alone (npm run ${name})`);
    continue;
  }
  console.log(`\n=== ${name}`);
  const run = spawnSync("npm", ["run", "-s", name], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
