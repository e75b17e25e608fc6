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
 *
 * Commands have no client-side timeout. node-redis' (5 s by default) counts while a command waits
 * in the client's own queue, before it is sent: under a storm a write that was merely queued
 * failed, was taken off the queue and had to be sent again later, behind more writes, and a
 * caller without a retry failed outright. A command now waits its turn; a lost connection still
 * fails the commands it carried, and the stores retry their writes.
 */
export async function connectRedis({
  url,
  onError = warnOnStderr,
}: RedisConnectOptions): Promise<RedisClient> {
  let connectedOnce = false;
  const client: RedisClient = createClient({
    url,
    commandOptions: { timeout: 0 },
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
