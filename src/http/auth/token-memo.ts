/**
 * What the authenticator remembers about tokens it has verified, by token; the oldest is forgotten
 * first once `capacity` tokens are remembered.
 *
 * A token arrives as a fresh string on every request and is long (an RS256 access token runs past a
 * thousand characters): a Map keyed by the whole token would hash all of it on every lookup, about
 * a microsecond. The memo keys on the token's last characters instead, which belong to its
 * signature and so differ between any two tokens an issuer signs, and compares the whole token on
 * a hit, so only the token itself is ever answered for. A token sharing another's tail (which only
 * a forger could arrange) takes its place, and the other is verified afresh when it comes back.
 */
export class TokenMemo<V> {
  private readonly entries = new Map<string, { token: string; value: V }>();

  constructor(private readonly capacity = 10_000) {}

  get(token: string): V | undefined {
    const entry = this.entries.get(tailOf(token));
    return entry !== undefined && entry.token === token ? entry.value : undefined;
  }

  set(token: string, value: V): void {
    const key = tailOf(token);
    if (!this.entries.has(key) && this.entries.size >= this.capacity) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { token, value });
  }

  delete(token: string): void {
    const key = tailOf(token);
    if (this.entries.get(key)?.token === token) this.entries.delete(key);
  }
}

/** Enough signature characters (6 bits each) that two signatures never share them by chance. */
const TAIL_LENGTH = 32;

function tailOf(token: string): string {
  return token.length <= TAIL_LENGTH ? token : token.slice(token.length - TAIL_LENGTH);
}
