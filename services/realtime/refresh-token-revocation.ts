import { ProblemError } from "../../src/http/errors.js";

/** How long the identity provider gets to answer (the composition sub-call timeout of spec 8.2). */
const TIMEOUT_MS = 3_000;

/**
 * Revokes an operator refresh token at the identity provider (RFC 7009), as the console's own
 * client: revoking it ends the whole token family, and the provider records the grant so that the
 * family's access tokens are refused too. The revocation endpoint is read from the provider's
 * discovery document, so an external issuer works as well as the embedded one
 * (`{auth_url}/oauth/revoke` on the embedded one).
 */
export class RefreshTokenRevocation {
  private endpoint: Promise<string> | undefined;

  constructor(
    private readonly authUrl: string,
    private readonly clientId: string,
  ) {}

  async revoke(refreshToken: string): Promise<void> {
    const response = await this.call(async () =>
      fetch(await this.revocationEndpoint(), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          token: refreshToken,
          token_type_hint: "refresh_token",
          client_id: this.clientId,
        }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }),
    );
    // RFC 7009 2.2: an unknown or already revoked token is answered 200 as well.
    if (!response.ok) throw unavailable(`the identity provider answered ${response.status}`);
  }

  private revocationEndpoint(): Promise<string> {
    this.endpoint ??= this.call(() =>
      fetch(`${this.authUrl.replace(/\/$/, "")}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }),
    ).then(async (response) => {
      const discovery = (await response.json()) as { revocation_endpoint?: unknown };
      if (!response.ok || typeof discovery.revocation_endpoint !== "string") {
        throw unavailable("the identity provider publishes no revocation endpoint");
      }
      return discovery.revocation_endpoint;
    });
    // A failed discovery is tried again on the next logout.
    this.endpoint.catch(() => {
      this.endpoint = undefined;
    });
    return this.endpoint;
  }

  private async call(request: () => Promise<Response>): Promise<Response> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof ProblemError) throw error;
      throw unavailable("the identity provider could not be reached");
    }
  }
}

function unavailable(why: string): ProblemError {
  return new ProblemError({
    status: 503,
    category: "unavailable",
    code: "identity-provider",
    detail: `The refresh token could not be revoked: ${why}. Live connections were closed and locks released; log out again to finish`,
    extensions: { failedDomain: "identity" },
    headers: { "Retry-After": "30" },
  });
}
