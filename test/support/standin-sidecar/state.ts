import type Router from "@koa/router";
import type { Context } from "koa";
import { EtagMismatchError, type StateOperation, type StateStore } from "../../../src/runtime/state-store.js";
import { SEP, daprError, parseJson, readBody } from "./app-channel.js";

/** The part of a state key the app chose, without the stand-in's `state||{store}||` prefix. */
function appKey(key: string): string {
  return key.split(SEP).slice(2).join(SEP);
}

/**
 * The state API the DaprStateStore adapter speaks; ETags are the backing store's. ETag mismatches
 * are answered as daprd 1.16 does over its Redis state store: 409 for a single save or delete, and
 * for a transaction the 500 `ERR_STATE_TRANSACTION` every failed transaction gets, carrying the
 * store's own text, which names the key but not the ETag.
 */
export class StandinState {
  constructor(private readonly store: StateStore) {}

  routes(router: Router): void {
    const key = (store: string, k: string) => `state${SEP}${store}${SEP}${k}`;
    const conflicts = async (
      ctx: Context,
      refusal: (error: EtagMismatchError) => Refusal,
      work: () => Promise<void>,
    ) => {
      try {
        await work();
        ctx.status = 204;
      } catch (error) {
        if (!(error instanceof EtagMismatchError)) throw error;
        const { status, errorCode, message } = refusal(error);
        daprError(ctx, status, errorCode, message);
      }
    };
    const mismatch = (error: EtagMismatchError) =>
      `possible etag mismatch. error from state store: failed to set key ${appKey(error.key)}`;

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
      const refusal = (error: EtagMismatchError): Refusal => ({
        status: 409,
        errorCode: "ERR_STATE_SAVE",
        message: `failed saving state in state store ${store}: ${mismatch(error)}`,
      });
      await conflicts(ctx, refusal, () =>
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
      const refusal = (error: EtagMismatchError): Refusal => ({
        status: 409,
        errorCode: "ERR_STATE_DELETE",
        message: `failed deleting state with key ${k}: ${mismatch(error)}`,
      });
      await conflicts(ctx, refusal, () => this.store.delete(key(store, k), { etag }));
    });

    router.post("/state/:store/transaction", async (ctx) => {
      const { store } = ctx.params as { store: string };
      const { operations } = parseJson(await readBody(ctx.req)) as {
        operations: Array<{
          operation: "upsert" | "delete";
          request: { key: string; value?: unknown; etag?: string };
        }>;
      };
      const refusal = (error: EtagMismatchError): Refusal => {
        const deleting = operations.some(
          (op) => op.operation === "delete" && key(store, op.request.key) === error.key,
        );
        return {
          status: 500,
          errorCode: "ERR_STATE_TRANSACTION",
          message: `error while executing state transaction: ${deleting ? "failed to delete" : "failed to set key"} ${appKey(error.key)}`,
        };
      };
      await conflicts(ctx, refusal, () =>
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

interface Refusal {
  status: number;
  errorCode: string;
  message: string;
}
