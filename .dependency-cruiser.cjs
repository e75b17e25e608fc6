/**
 * Import rules: layers point down only, and no module cycle (folder cycles:
 * .dependency-cruiser-folders.cjs). `npm run lint` runs both.
 *
 *   src/main.ts                                   composes: the only module that may import everything
 *   services/  src/identity/  src/passenger-identity/  src/demo/  src/config.ts  src/logger.ts
 *                                                 surfaces and what they are built from
 *   src/http                                      Koa middleware; maps errors to problems
 *   src/app                                       use cases; who may act (principals, authorization)
 *   actors/  src/workflows                        one aggregate each (decisions in src/domain); sagas
 *   src/vendors                                   vendor ports, their errors, and the adapters
 *   src/runtime                                   ports and their adapters
 *   src/domain                                    pure: no project import but domain, no I/O
 *
 * Decisions written down here:
 * - src/app may import the vendor ports and the errors a port raises (vendor-port, vendor-error,
 *   circuit-open-error, the ride-provider and wallet-issuer ports) and the retry policies (retry:
 *   backoff over the clock port, for the use cases that retry themselves, as wallet issuance does),
 *   never a vendor adapter or transport: those are chosen by the composition.
 * - src/identity (the embedded identity provider), src/passenger-identity (passenger sign-in and its
 *   routes) and src/demo (seeded data) are built like services: they may import http and app, and
 *   nothing below them imports them. The ports app and http need from them live in app or http
 *   (src/app/directory.ts, src/http/auth/claims.ts, src/http/auth/revoked-grants.ts).
 * - src/config.ts and src/logger.ts read the environment: only services and src/main.ts import
 *   them; everything below receives its settings as arguments.
 * - src/domain may use node:crypto (hashing, UUIDs: computation, no I/O); every other node: module
 *   is refused (files, network, processes, timers are I/O or belong to a port).
 * - The runtime adapters (embedded, dapr, redis, mongo, memory) are chosen by src/main.ts only.
 * - A type-only import counts: a type is a dependency as much as a value is.
 * Tests, benches and scripts compose too, and are not cruised.
 *
 * Runs beside TypeScript 7 through @swc/core (dependency-cruiser 17 wants typescript < 7).
 */

/** A layer's own path and the paths it may import from the project. */
const DOMAIN = "^src/domain/";
const RUNTIME = "^src/runtime/";
const VENDORS = "^src/vendors/";
const VENDOR_PORTS =
  "^src/vendors/(vendor-port|vendor-error|circuit-open-error|ride-provider|wallet-issuer-port|contract-image-reader|retry)[.]ts$";
const ACTORS = "^actors/";
const WORKFLOWS = "^src/workflows/";
const APP = "^src/app/";
const HTTP = "^src/http/";
const ABOVE_HTTP = "^(services/|src/(identity|passenger-identity|demo)/|src/(config|logger)[.]ts$)";
const MAIN = "^src/main[.]ts$";
/** The browser front ends: built by Vite, they speak to the service over HTTP only (biome.json). */
const FRONT_ENDS = "^services/(operator-console|passenger-app)/";
/** Everything of the project the cruise sees (node_modules and node: builtins are not project). */
const PROJECT = "^(src|actors|services)/";

/** `<layer>-points-down`: from `layer`, any project import outside `allowed` is refused. */
function pointsDown(name, layer, allowed, comment) {
  return {
    name: `${name}-points-down`,
    comment,
    severity: "error",
    from: { path: layer },
    to: { path: PROJECT, pathNot: allowed },
  };
}

module.exports = {
  forbidden: [
    pointsDown("domain", DOMAIN, [DOMAIN], "src/domain imports nothing of the project but domain."),
    pointsDown("runtime", RUNTIME, [DOMAIN, RUNTIME], "Runtime ports and adapters import only domain."),
    pointsDown(
      "vendors",
      VENDORS,
      [DOMAIN, RUNTIME, VENDORS],
      "Vendor ports and adapters import only domain and runtime ports.",
    ),
    pointsDown("actors", ACTORS, [DOMAIN, RUNTIME, ACTORS], "Actors import domain and runtime ports only."),
    pointsDown(
      "workflows",
      WORKFLOWS,
      [DOMAIN, RUNTIME, ACTORS, WORKFLOWS, VENDOR_PORTS],
      "A saga's activities drive actors and vendor ports; workflows import nothing above them.",
    ),
    pointsDown(
      "app",
      APP,
      [DOMAIN, RUNTIME, ACTORS, WORKFLOWS, APP, VENDOR_PORTS],
      "Use cases import domain, runtime ports, actors' contracts, workflows and the vendor ports (not adapters).",
    ),
    pointsDown(
      "http",
      HTTP,
      [DOMAIN, RUNTIME, ACTORS, WORKFLOWS, APP, HTTP, VENDOR_PORTS],
      "src/http imports app and below; it only maps errors to problems, it decides no rule.",
    ),
    pointsDown(
      "services",
      ABOVE_HTTP.replace("services/", "services/(?!operator-console/|passenger-app/)"),
      [DOMAIN, RUNTIME, VENDORS, ACTORS, WORKFLOWS, APP, HTTP, ABOVE_HTTP],
      "Services (and identity, passenger identity, demo data) import everything below; only main composes them.",
    ),
    {
      name: "server-does-not-import-front-ends",
      comment: "Server code serves the built front ends (src/http/front-end.ts); it never imports their sources.",
      severity: "error",
      from: { path: PROJECT },
      to: { path: FRONT_ENDS },
    },
    {
      name: "config-is-read-at-the-top",
      comment: "src/config.ts and src/logger.ts are imported by services and src/main.ts only.",
      severity: "error",
      from: { path: "^(src|actors)/", pathNot: ["^src/(config|logger|main)[.]ts$", ABOVE_HTTP] },
      to: { path: "^src/(config|logger)[.]ts$" },
    },
    {
      name: "domain-is-pure",
      comment: "src/domain does no I/O: node:crypto (hashing, UUIDs) is the only builtin it may import.",
      severity: "error",
      from: { path: DOMAIN },
      to: { dependencyTypes: ["core"], pathNot: "^crypto$" },
    },
    {
      name: "only-main-composes",
      comment:
        "Nothing imports src/main.ts, and the runtime adapters are chosen there alone (tests, benches and scripts compose their own).",
      severity: "error",
      from: { path: PROJECT, pathNot: [MAIN, "^src/runtime/"] },
      to: { path: [MAIN, "^src/runtime/(embedded|dapr|redis|mongo|memory)/"] },
    },
    {
      name: "no-circular",
      comment: "No import cycle between modules (Dapr JS has no reentrancy; a cycle also hides a layer).",
      severity: "error",
      from: { path: PROJECT },
      to: { circular: true },
    },
  ],
  options: {
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    // The front ends (TSX, which this parser is not set up for) are held to their own folders by
    // biome.json (noRestrictedImports), and nothing here may import them (the rule above).
    exclude: { path: ["node_modules", FRONT_ENDS] },
    tsPreCompilationDeps: true,
  },
};
