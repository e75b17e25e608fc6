import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import mount from "koa-mount";
import { createDemoDirectory } from "../../src/demo/demo-directory.js";
import { type Audiences, defaultAudiences } from "../../src/identity/audiences.js";
import type { Directory } from "../../src/app/directory.js";
import { createIdentityProvider, type IdentityProvider } from "../../src/identity/identity-provider.js";
import { CounterStoreRevokedGrants } from "../../src/http/auth/revoked-grants.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { type Clock, systemClock } from "../../src/runtime/clock.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import type { NotificationChannel } from "../../src/app/notifications/notification-channel.js";
import type { SignInRiskSettings } from "../../src/identity/sign-in-risk.js";

/** The embedded identity provider mounted at /auth on a host app listening on a free port. */
export interface RunningIdentityProvider {
  idp: IdentityProvider;
  baseUrl: string;
  issuer: string;
  tokenUrl: string;
  audiences: Audiences;
  directory: Directory;
  revokedGrants: CounterStoreRevokedGrants;
  close(): Promise<void>;
}

export async function startIdentityProvider(
  clock: Clock = systemClock,
  options: {
    directory?: Directory;
    signInRisk?: SignInRiskSettings;
    smsChannel?: () => NotificationChannel | undefined;
  } = {},
): Promise<RunningIdentityProvider> {
  const host = new Koa();
  // The issuer names the port, so the server listens before the app is complete.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${baseUrl}/auth`;
  const audiences = defaultAudiences(baseUrl, "http://127.0.0.1:1");
  const directory = options.directory ?? createDemoDirectory(clock);
  const revokedGrants = new CounterStoreRevokedGrants(new MemoryCounterStore(clock));
  const idp = await createIdentityProvider({
    issuer,
    directory,
    audiences,
    revokedGrants,
    clock,
    documents: new MemoryDocumentStore(),
    ...(options.signInRisk ? { signInRisk: options.signInRisk } : {}),
    ...(options.smsChannel ? { smsChannel: options.smsChannel } : {}),
  });
  host.use(mount("/auth", idp.app));
  server.on("request", host.callback());
  return {
    idp,
    baseUrl,
    issuer,
    tokenUrl: `${issuer}/oauth/token`,
    audiences,
    directory,
    revokedGrants,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** POSTs a JSON token request and returns status and parsed body. */
export async function tokenRequest(
  running: RunningIdentityProvider,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(running.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
