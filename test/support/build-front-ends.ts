/**
 * Vitest global set-up: the front ends built once before the suite (scripts/build-ui.ts), so the
 * operator host serves /console/ and the passenger host its app as `npm start` does.
 */
import { fileURLToPath } from "node:url";
import { FRONT_ENDS, frontEndBuild } from "../../scripts/front-ends.js";

export default async function buildFrontEnds(): Promise<void> {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  for (const frontEnd of FRONT_ENDS) await frontEndBuild(root, frontEnd);
}
