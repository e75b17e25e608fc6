import { createHash } from "node:crypto";
import { type RedisClient, redisFailure } from "./redis-connection.js";

/**
 * A Lua script run atomically by Redis. Sent by SHA1 (EVALSHA) and only in full (EVAL) when the
 * server does not know it yet, as after a restart or SCRIPT FLUSH.
 */
export class LuaScript {
  readonly sha1: string;

  constructor(private readonly source: string) {
    this.sha1 = createHash("sha1").update(source).digest("hex");
  }

  /** Fails as a Redis store does (`redisFailure`). */
  async run(client: RedisClient, keys: string[], args: string[]): Promise<unknown> {
    const options = { keys, arguments: args };
    try {
      return await client.evalSha(this.sha1, options).catch((error: unknown) => {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return client.eval(this.source, options);
      });
    } catch (error) {
      throw redisFailure(error);
    }
  }
}
