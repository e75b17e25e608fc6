import { once } from "node:events";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import {
  type ConventionsOptions,
  httpConventions,
  type RouteDeps,
  serveRoutes,
} from "../../src/http/request-pipeline.js";
import type { Route } from "../../src/http/route.js";

/** Routes served over HTTP as the request pipeline serves them, on a free local port. */
export interface ServedRoutes {
  base: string;
  close(): void;
}

export async function serve(
  routes: readonly Route[],
  deps: RouteDeps,
  conventions: ConventionsOptions = {},
): Promise<ServedRoutes> {
  const app = new Koa();
  app.use(httpConventions(conventions));
  app.use(serveRoutes(routes, deps));
  const server = app.listen(0);
  await once(server, "listening");
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
