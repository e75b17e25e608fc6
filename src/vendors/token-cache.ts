/**
 * OAuth 2.0 client-credentials tokens for one vendor account (spec 5.6): a token is reused until
 * 60 s before it expires, concurrent callers share one refresh, and a 401 forces exactly one
 * refresh and one more try before the failure is given back.
 */
import type { Clock } from "../runtime/clock.js";

export interface FetchedToken {
  accessToken: string;
  expiresInSeconds: number;
}

/** Refresh this long before expiry, so a token never expires on its way to the vendor. */
export const REFRESH_MARGIN_MS = 60_000;

export class TokenCache {
  private current: { value: string; refreshAt: number } | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<FetchedToken>,
    private readonly clock: Clock,
    private readonly refreshMarginMs = REFRESH_MARGIN_MS,
  ) {}

  async token(): Promise<string> {
    if (this.current && this.clock.now() < this.current.refreshAt) return this.current.value;
    return this.refresh();
  }

  /**
   * Runs `call` with a token; when `rejected` says the vendor refused the token (a 401), gets a
   * fresh one and runs `call` once more, whatever that second answer is.
   */
  async authorized<T>(call: (token: string) => Promise<T>, rejected: (result: T) => boolean): Promise<T> {
    const token = await this.token();
    const first = await call(token);
    if (!rejected(first)) return first;
    return call(await this.replace(token));
  }

  /** A fresh token instead of `rejected`, unless a concurrent caller already replaced it. */
  private replace(rejected: string): Promise<string> {
    if (this.current && this.current.value !== rejected) return Promise.resolve(this.current.value);
    this.current = undefined;
    return this.refresh();
  }

  private refresh(): Promise<string> {
    this.inFlight ??= this.fetchToken()
      .then(({ accessToken, expiresInSeconds }) => {
        this.current = {
          value: accessToken,
          refreshAt: this.clock.now() + expiresInSeconds * 1000 - this.refreshMarginMs,
        };
        return accessToken;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }
}
