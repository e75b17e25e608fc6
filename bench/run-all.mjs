// Runs every `bench:<name>` script of package.json, one after another (they measure; never run them
// in parallel). The other files in this folder are what those scripts share or spawn.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const { scripts } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
let failed = 0;
for (const name of Object.keys(scripts).filter((s) => s.startsWith("bench:"))) {
  console.log(`\n=== ${name}`);
  const run = spawnSync("npm", ["run", "-s", name], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
