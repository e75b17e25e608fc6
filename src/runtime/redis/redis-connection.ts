import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  ErrorReply,
  type RedisClientType,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
} from "redis";
import { StoreUnavailableError } from "../store-unavailable-error.js";

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
 *
 * Waiting is for a live connection only: while the client is not connected it fails commands at
 * once (no offline queue), with those it had not sent yet, so a request during an outage answers
 * 503 (`redisFailure`) instead of waiting for Redis to come back, and nothing piles up meanwhile.
 */
export async function connectRedis({
  url,
  onError = warnOnStderr,
}: RedisConnectOptions): Promise<RedisClient> {
  let connectedOnce = false;
  const client: RedisClient = createClient({
    url,
    commandOptions: { timeout: 0 },
    disableOfflineQueue: true,
    socket: {
      reconnectStrategy: (retries, cause) => (connectedOnce ? Math.min(retries * 100, 2_000) : cause),
    },
  });
  client.on("error", onError);
  await client.connect();
  connectedOnce = true;
  return client;
}

/**
 * Replies by which Redis refuses commands for a while: loading its data, a read-only replica or
 * one without its master, out of memory, busy running a script.
 */
const UNAVAILABLE_REPLIES = new Set(["LOADING", "READONLY", "MASTERDOWN", "OOM", "BUSY"]);

/**
 * What a Redis store throws for a command that failed: a StoreUnavailableError when Redis cannot
 * answer for now (not connected, connection lost or refused, a refusal of UNAVAILABLE_REPLIES),
 * the error itself otherwise.
 */
export function redisFailure(error: unknown): unknown {
  const unavailable =
    error instanceof ErrorReply
      ? UNAVAILABLE_REPLIES.has(error.message.split(" ", 1)[0]!)
      : error instanceof ClientOfflineError ||
        error instanceof ClientClosedError ||
        error instanceof SocketClosedUnexpectedlyError ||
        error instanceof ConnectionTimeoutError ||
        error instanceof SocketTimeoutError ||
        // A failed system call on the socket: ECONNRESET, ECONNREFUSED, EPIPE...
        typeof (error as NodeJS.ErrnoException | null)?.syscall === "string";
  return unavailable ? new StoreUnavailableError({ cause: error }) : error;
}

function warnOnStderr(error: Error): void {
  console.warn(`Redis connection error: ${error.message}`);
}
