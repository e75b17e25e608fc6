/**
 * The state store a bench runs the platform on, as its environment names it (STATE_STORE, and
 * REDIS_URL for `redis`): `STATE_STORE=redis npm run bench:intake` measures the durable node.
 */
export function storeEnvironment(): Record<string, string> {
  return {
    ...(process.env.STATE_STORE ? { STATE_STORE: process.env.STATE_STORE } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };
}
