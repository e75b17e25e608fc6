import { publishEvent } from "../../src/runtime/event-bus.js";
import { urn } from "../../src/domain/urn.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import { CounterStoreRevokedGrants } from "../../src/http/auth/revoked-grants.js";
import type { Runtime } from "../../src/runtime/runtime.js";
import type { RealtimeHub, SessionsClosed } from "./realtime-hub.js";
import type { RefreshTokenRevocation } from "./refresh-token-revocation.js";

/**
 * Operator logout in the order of spec 5.1: (1) the operator's live connections are closed and
 * every lock the operator holds is released, and this has finished before (2) the refresh token
 * is revoked at the identity provider; (3), clearing client state, is the console's.
 * Connections on other replicas are closed through a `operator.logged-out` event on the tenant
 * topic. Without a refresh token, the session's grant (the token's `gid`) is revoked instead, so
 * its access tokens stop working all the same.
 */
export class OperatorLogout {
  constructor(
    private readonly runtime: Runtime,
    private readonly hub: RealtimeHub,
    private readonly revocation: RefreshTokenRevocation,
  ) {}

  async execute(
    principal: OperatorPrincipal,
    refreshToken: string | undefined,
    correlationUrn: string,
  ): Promise<SessionsClosed> {
    const closed = await this.hub.closeOperatorSessions(principal);
    await publishEvent(this.runtime.bus, {
      id: urn("event"),
      type: "operator.logged-out",
      tenant: principal.tenant,
      occurredAt: new Date(this.runtime.clock.now()).toISOString(),
      correlationUrn,
      data: { operatorUrn: principal.actorUrn },
    });
    if (refreshToken) await this.revocation.revoke(refreshToken);
    else if (principal.grantId)
      await new CounterStoreRevokedGrants(this.runtime.counters).add(principal.grantId);
    return closed;
  }
}
