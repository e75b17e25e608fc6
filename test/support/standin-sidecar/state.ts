import type Router from "@koa/router";
import type { Context } from "koa";
import { EtagMismatchError, type StateOperation, type StateStore } from "../../../src/runtime/state-store.js";
import { SEP, daprError, parseJson, readBody } from "./app-channel.js";

/** The state API the DaprStateStore adapter speaks; ETags are the backing store's. */
export class StandinState {
  constructor(private readonly store: StateStore) {}

  routes(router: Router): void {
    const key = (store: string, k: string) => `state${SEP}${store}${SEP}${k}`;
    const conflicts = async (ctx: Context, work: () => Promise<void>) => {
      try {
        await work();
        ctx.status = 204;
      } catch (error) {
        if (!(error instanceof EtagMismatchError)) throw error;
        daprError(
          ctx,
          409,
          "ERR_STATE_SAVE",
          `possible etag mismatch. error from state store: ${error.message}`,
        );
      }
    };

    router.get("/state/:store/:key", async (ctx) => {
      const { store, key: k } = ctx.params as { store: string; key: string };
      const entry = await this.store.get(key(store, k));
      if (!entry) {
        ctx.status = 204;
        return;
      }
      ctx.set("ETag", entry.etag);
      ctx.type = "application/json";
      ctx.body = JSON.stringify(entry.value);
    });

    router.post("/state/:store/bulk", async (ctx) => {
      const { store } = ctx.params as { store: string };
      const { keys } = parseJson(await readBody(ctx.req)) as { keys: string[] };
      const found = await this.store.getMany(keys.map((k) => key(store, k)));
      ctx.body = keys.map((k) => {
        const entry = found.get(key(store, k));
        return entry ? { key: k, data: entry.value, etag: entry.etag } : { key: k };
      });
    });

    router.post("/state/:store", async (ctx) => {
      const { store } = ctx.params as { store: string };
      const items = parseJson(await readBody(ctx.req)) as Array<{
        key: string;
        value: unknown;
        etag?: string;
      }>;
      await conflicts(ctx, () =>
        this.store.transact(
          items.map((item) => ({
            operation: "upsert",
            key: key(store, item.key),
            value: item.value,
            etag: item.etag,
          })),
        ),
      );
    });

    router.delete("/state/:store/:key", async (ctx) => {
      const { store, key: k } = ctx.params as { store: string; key: string };
      const etag = ctx.get("if-match") || undefined;
      await conflicts(ctx, () => this.store.delete(key(store, k), { etag }));
    });

    router.post("/state/:store/transaction", async (ctx) => {
      const { store } = ctx.params as { store: string };
      const { operations } = parseJson(await readBody(ctx.req)) as {
        operations: Array<{
          operation: "upsert" | "delete";
          request: { key: string; value?: unknown; etag?: string };
        }>;
      };
      await conflicts(ctx, () =>
        this.store.transact(
          operations.map(
            ({ operation, request }): StateOperation =>
              operation === "delete"
                ? { operation, key: key(store, request.key), etag: request.etag }
                : { operation, key: key(store, request.key), value: request.value, etag: request.etag },
          ),
        ),
      );
    });
  }
}
