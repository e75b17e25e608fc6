/**
 * `npm run dapr:check [root]`: checks the Dapr run files, components, resiliency policies and
 * configuration against what Dapr 1.16 accepts (scripts/dapr-check.checks.ts) and exits 1 on any
 * finding. No sidecar is needed.
 */
import path from "node:path";
import { checkDaprFiles } from "./dapr-check.checks.js";

const root = path.resolve(process.argv[2] ?? ".");
const findings = checkDaprFiles(root);
for (const { file, message } of findings) process.stdout.write(`${file}: ${message}\n`);
process.stdout.write(
  `dapr-check: ${findings.length === 0 ? "no findings" : `${findings.length} finding(s)`}\n`,
);
process.exitCode = findings.length === 0 ? 0 : 1;
