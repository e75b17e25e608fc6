/**
 * Builds the two front ends (services/operator-console, services/passenger-app) with Vite into
 * dist/ui/<app>, where their APIs serve them from. `npm start` runs it first and the test suite's
 * global set-up runs it once, so a fresh clone needs no extra command.
 */
import { fileURLToPath } from "node:url";
import { FRONT_ENDS, frontEndBuild } from "./front-ends.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const started = Date.now();
for (const frontEnd of FRONT_ENDS) await frontEndBuild(root, frontEnd);
console.log(`front ends built in ${Date.now() - started} ms`);
