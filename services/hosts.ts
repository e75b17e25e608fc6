import { join } from "node:path";
import Koa, { type Middleware } from "koa";
import mount from "koa-mount";
import type { Logger } from "pino";
import { httpConventions, type RouteDeps, serveRoutes } from "../src/http/request-pipeline.js";
import { frontEnd, PASSENGER_APP_CSP } from "../src/http/front-end.js";
import type { Route } from "../src/http/route.js";
import { specificationRoutes } from "../src/http/specification-routes.js";

export interface HostParts {
  routes: readonly Route[];
  deps: RouteDeps;
  logger: Logger;
  errorsUrl: string;
  publicBaseUrl: string;
  passengerBaseUrl: string;
  authUrl: string;
  build: string;
  /** Mounted before the conventions: the identity provider answers OAuth errors its own way. */
  identity?: Koa;
  /** Mounted first: the Dapr sidecar's callback routes read raw bodies. */
  sidecar?: Middleware;
  /**
   * Pages in-process simulators host for browsers on the embedded default (the wallet issuer's card
   * reveal page), before the API's conventions: they are the vendor's pages, not the API.
   */
  simulatorPages?: Middleware;
  /**
   * Where the front ends are built (dist/ui, scripts/build-ui.ts): the operator console is served at
   * /console/ on the operator host, the passenger app at / on the passenger host.
   */
  frontEndsFolder?: string;
}

/**
 * The operator host serves the operator and partner APIs (same host, spec 4.3), the OpenAPI
 * documents of all three surfaces, and, on the embedded default, the identity provider at /auth.
 */
export function operatorHost(parts: HostParts): Koa {
  const app = new Koa({ proxy: true });
  if (parts.sidecar) app.use(parts.sidecar);
  if (parts.simulatorPages) app.use(parts.simulatorPages);
  if (parts.identity) {
    const identity = mount("/auth", parts.identity);
    // koa-mount would enter an async function on every request to find most are not for it.
    app.use((ctx, next) => (isUnder(ctx.path, "/auth") ? identity(ctx, next) : next()));
  }
  app.use(httpConventions({ logger: parts.logger, errorsUrl: parts.errorsUrl }));
  if (parts.frontEndsFolder)
    app.use(frontEnd({ folder: join(parts.frontEndsFolder, "operator-console"), base: "/console/" }));
  app.use(
    serveRoutes(
      withSpecificationRoutes(parts).filter((r) => r.surface !== "passenger"),
      parts.deps,
    ),
  );
  return app;
}

/** The API's routes and those publishing its OpenAPI documents (spec 4.6), every surface. */
function withSpecificationRoutes(parts: HostParts): Route[] {
  const servers = {
    operator: parts.publicBaseUrl,
    partner: parts.publicBaseUrl,
    passenger: parts.passengerBaseUrl,
  };
  const published = specificationRoutes(parts.routes, {
    servers,
    version: parts.build,
    partnerTokenUrl: `${parts.authUrl}/oauth/token`,
  });
  return [...parts.routes, ...published];
}

/** koa-mount's own test: the prefix itself or a path below it. */
function isUnder(path: string, prefix: string): boolean {
  return path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === "/");
}

/** The passenger host: its own port and per-tenant host names; the passenger OpenAPI document too. */
export function passengerHost(parts: HostParts): Koa {
  const app = new Koa({ proxy: true });
  // What reaches here failed after the response began (problems are answered before): a client
  // leaving an event stream is the usual one and no error; anything else goes to the log.
  app.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ERR_STREAM_PREMATURE_CLOSE")
      parts.logger.error({ err: error }, "passenger response failed");
  });
  if (parts.sidecar) app.use(parts.sidecar);
  app.use(httpConventions({ logger: parts.logger, errorsUrl: parts.errorsUrl }));
  const routes = withSpecificationRoutes(parts).filter((r) => r.surface === "passenger");
  if (parts.frontEndsFolder) {
    // The app owns every path of the host but the API's: its screens are extensionless paths.
    const apiPaths = [...new Set(routes.map((r) => `/${r.path.split("/")[1]}/`))];
    app.use(
      frontEnd({
        folder: join(parts.frontEndsFolder, "passenger-app"),
        base: "/",
        apiPaths,
        contentSecurityPolicy: PASSENGER_APP_CSP,
      }),
    );
  }
  app.use(serveRoutes(routes, parts.deps));
  return app;
}

/**
 * A process running only background services (workers, vendor simulators) under Dapr: the
 * sidecar's callback routes, a health check, and the vendor simulators' HTTP API when it runs them.
 */
export function backgroundHost(parts: Pick<HostParts, "sidecar">, vendorSimulators?: Koa): Koa {
  const app = new Koa();
  if (parts.sidecar) app.use(parts.sidecar);
  app.use(async (ctx, next) => {
    if (ctx.path === "/healthz") {
      ctx.body = "ok";
      return;
    }
    await next();
  });
  if (vendorSimulators) app.use(mount(vendorSimulators));
  return app;
}
