import {
  type RedisClient,
  type RedisConnectOptions,
  connectRedis,
  redisFailure,
} from "./redis-connection.js";

export interface RedisStoreOptions {
  client: RedisClient;
  /** Namespace for every key the store writes, e.g. `"disruption:counters:"`. */
  prefix?: string;
}

/**
 * A store on one Redis client, under a key namespace. A store given a client leaves it open on
 * `close()`; one opened with `connect` owns its connection and ends it.
 */
export abstract class RedisStore {
  protected readonly client: RedisClient;
  protected readonly prefix: string;
  private ownsClient = false;

  constructor({ client, prefix = "" }: RedisStoreOptions) {
    this.client = client;
    this.prefix = prefix;
  }

  /** Opens its own connection, which `close()` then ends. */
  static async connect<S extends RedisStore>(
    this: new (
      options: RedisStoreOptions,
    ) => S,
    options: RedisConnectOptions & { prefix?: string },
  ): Promise<S> {
    const store = new this({ client: await connectRedis(options), prefix: options.prefix });
    store.ownsClient = true;
    return store;
  }

  /** Sends a command of this store, failing as a Redis store does (`redisFailure`). */
  protected async command<R>(send: (client: RedisClient) => Promise<R>): Promise<R> {
    try {
      return await send(this.client);
    } catch (error) {
      throw redisFailure(error);
    }
  }

  async close(): Promise<void> {
    if (this.ownsClient && this.client.isOpen) await this.client.close();
  }
}
