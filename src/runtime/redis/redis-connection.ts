import { createClient, type RedisClientType } from "redis";

export type RedisClient = RedisClientType;

export interface RedisConnectOptions {
  url: string;
  /**
   * Receives connection errors while the client reconnects. node-redis emits them as `error` events,
   * and an `error` event without a listener would crash the process.
   */
  onError?: (error: Error) => void;
}

/**
 * Fails at once when Redis cannot be reached at start-up, so a misconfigured process stops instead
 * of waiting forever; once connected, it reconnects in the background with a capped backoff.
 */
export async function connectRedis({
  url,
  onError = warnOnStderr,
}: RedisConnectOptions): Promise<RedisClient> {
  let connectedOnce = false;
  const client: RedisClient = createClient({
    url,
    socket: {
      reconnectStrategy: (retries, cause) => (connectedOnce ? Math.min(retries * 100, 2_000) : cause),
    },
  });
  client.on("error", onError);
  await client.connect();
  connectedOnce = true;
  return client;
}

function warnOnStderr(error: Error): void {
  console.warn(`Redis connection error: ${error.message}`);
}
