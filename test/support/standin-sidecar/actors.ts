import type Router from "@koa/router";
import type { Context } from "koa";
import type { TimerHandle } from "../../../src/runtime/clock.js";
import type { StateOperation, StateStore } from "../../../src/runtime/state-store.js";
import { type AppChannel, SEP, daprError, parseJson, readBody } from "./app-channel.js";
import { parseDuration } from "./duration.js";

export interface RegisteredReminder {
  actorType: string;
  actorId: string;
  name: string;
  dueAt: number;
  periodMs: number | undefined;
  data: unknown;
}

interface Reminder extends RegisteredReminder {
  timer: TimerHandle | undefined;
  failures: number;
  /** Due while no attached app hosted its actor type: fired when one that does attaches. */
  held: boolean;
}

/** A `DELETE /actors/{type}/{id}` the stand-in sent, and the app's answer (0: no answer). */
export interface Deactivation {
  actorType: string;
  actorId: string;
  status: number;
}

/**
 * daprd 1.16 keeps actor reminders as scheduler jobs; one registered without a failure policy gets
 * the scheduler's default: a retry every second, three at most. A periodic reminder then keeps its
 * fixed schedule (due time plus whole periods), whatever its callbacks cost.
 */
const REMINDER_RETRY_INTERVAL_MS = 1_000;
const REMINDER_MAX_RETRIES = 3;
/** daprd's actor idle timeout when the app's `/dapr/config` names none. */
const DEFAULT_IDLE_TIMEOUT = "1h";

/**
 * Placement's turn-based locking: one call at a time per actor id, in arrival order, across method
 * calls and reminder callbacks alike.
 */
class ActorLocks {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/**
 * The actors building block: calls forwarded one at a time per actor, actor state in the shared
 * store, and reminders fired on the injected clock. As daprd 1.16 does, it calls the app only for
 * the actor types the app reported in `/dapr/config` (placement), takes only 200 from a callback as
 * success, and deactivates an actor idle for the app's `actorIdleTimeout` with
 * `DELETE /actors/{type}/{id}`.
 */
export class StandinActors {
  actorTypes: string[] = [];
  private idleTimeoutMs = parseDuration(DEFAULT_IDLE_TIMEOUT);
  private readonly locks = new ActorLocks();
  private readonly reminders = new Map<string, Reminder>();
  /** Activated actors by actor key, with the timer that deactivates each once idle. */
  private readonly active = new Map<string, TimerHandle>();
  private readonly deactivated: Deactivation[] = [];

  constructor(
    private readonly channel: AppChannel,
    private readonly store: StateStore,
  ) {}

  /** Reads the app's actor types as daprd does at start-up. */
  async readConfig(): Promise<void> {
    const config = (await (await this.channel.callApp("GET", "/dapr/config")).json()) as {
      entities?: string[];
      actorIdleTimeout?: string;
    };
    this.actorTypes = config.entities ?? [];
    this.idleTimeoutMs = parseDuration(config.actorIdleTimeout || DEFAULT_IDLE_TIMEOUT);
    for (const reminder of this.reminders.values()) {
      if (reminder.held && this.hosts(reminder.actorType)) {
        reminder.held = false;
        this.channel.track(this.fire(reminder));
      }
    }
  }

  /** Every deactivation the stand-in sent, in order. */
  deactivations(): Deactivation[] {
    return [...this.deactivated];
  }

  registeredReminders(): RegisteredReminder[] {
    return [...this.reminders.values()].map(
      ({ timer: _timer, failures: _failures, held: _held, ...reminder }) => reminder,
    );
  }

  /** Disarms every reminder and idle timer: the stand-in is closing. */
  close(): void {
    for (const reminder of this.reminders.values()) reminder.timer?.cancel();
    for (const timer of this.active.values()) timer.cancel();
    this.active.clear();
  }

  routes(router: Router): void {
    const invokeActor = async (ctx: Context) => {
      const { type, id, method } = ctx.params as { type: string; id: string; method: string };
      if (!this.hosts(type)) {
        return daprError(ctx, 500, "ERR_ACTOR_INSTANCE_MISSING", `no app hosts actor type ${type}`);
      }
      const body = await readBody(ctx.req);
      const path = `/actors/${encodeURIComponent(type)}/${encodeURIComponent(id)}/method/${encodeURIComponent(method)}`;
      const response = await this.locks.run(this.actorKey(type, id), async () => {
        const answer = await this.channel.callApp(
          "PUT",
          path,
          body,
          ctx.get("content-type") || "application/json",
        );
        const answered = {
          status: answer.status,
          type: answer.headers.get("content-type"),
          body: Buffer.from(await answer.arrayBuffer()),
        };
        if (answered.status === 200) this.touch(type, id);
        return answered;
      });
      if (response.status !== 200) {
        return daprError(
          ctx,
          500,
          "ERR_ACTOR_INVOKE_METHOD",
          `error invoke actor method: error from actor service: (${response.status}) ${response.body.toString("utf8")}`,
        );
      }
      ctx.status = 200;
      if (response.type) ctx.type = response.type;
      ctx.body = response.body;
    };
    router.post("/actors/:type/:id/method/:method", invokeActor);
    router.put("/actors/:type/:id/method/:method", invokeActor);

    router.get("/actors/:type/:id/state/:key", async (ctx) => {
      const { type, id, key } = ctx.params as { type: string; id: string; key: string };
      const entry = await this.store.get(this.actorStateKey(type, id, key));
      if (!entry) {
        ctx.status = 204;
        return;
      }
      ctx.type = "application/json";
      ctx.body = JSON.stringify(entry.value);
    });

    router.post("/actors/:type/:id/state", async (ctx) => {
      const { type, id } = ctx.params as { type: string; id: string };
      const changes = parseJson(await readBody(ctx.req)) as Array<{
        operation: "upsert" | "delete";
        request: { key: string; value?: unknown };
      }>;
      await this.store.transact(
        changes.map((change): StateOperation => {
          const key = this.actorStateKey(type, id, change.request.key);
          return change.operation === "delete"
            ? { operation: "delete", key }
            : { operation: "upsert", key, value: change.request.value };
        }),
      );
      ctx.status = 204;
    });

    const registerReminder = async (ctx: Context) => {
      const { type, id, name } = ctx.params as { type: string; id: string; name: string };
      const body = parseJson(await readBody(ctx.req)) as {
        dueTime?: string;
        period?: string;
        data?: unknown;
      };
      this.armReminder({
        actorType: type,
        actorId: id,
        name,
        dueAt: this.channel.clock.now() + parseDuration(body.dueTime || "0s"),
        periodMs: body.period ? parseDuration(body.period) : undefined,
        data: body.data,
        timer: undefined,
        failures: 0,
        held: false,
      });
      ctx.status = 204;
    };
    router.post("/actors/:type/:id/reminders/:name", registerReminder);
    router.put("/actors/:type/:id/reminders/:name", registerReminder);

    router.get("/actors/:type/:id/reminders/:name", (ctx) => {
      const { type, id, name } = ctx.params as { type: string; id: string; name: string };
      const reminder = this.reminders.get(this.reminderKey(type, id, name));
      if (!reminder) return daprError(ctx, 404, "ERR_ACTOR_REMINDER_GET", `no reminder ${name}`);
      ctx.body = {
        dueTime: new Date(reminder.dueAt).toISOString(),
        period: reminder.periodMs,
        data: reminder.data,
      };
    });

    router.delete("/actors/:type/:id/reminders/:name", (ctx) => {
      const { type, id, name } = ctx.params as { type: string; id: string; name: string };
      const key = this.reminderKey(type, id, name);
      this.reminders.get(key)?.timer?.cancel();
      this.reminders.delete(key);
      ctx.status = 204;
    });
  }

  /** Placement: only an attached app that reported the type in `/dapr/config` gets its calls. */
  private hosts(type: string): boolean {
    return this.channel.attached && this.actorTypes.includes(type);
  }

  /** The actor is active after a call that succeeded; its idle timer starts again. */
  private touch(type: string, id: string): void {
    const key = this.actorKey(type, id);
    this.active.get(key)?.cancel();
    if (this.channel.closed) return;
    const timer = this.channel.clock.setTimer(() => {
      if (this.active.get(key) !== timer) return;
      this.channel.track(this.deactivate(type, id, timer));
    }, this.idleTimeoutMs);
    this.active.set(key, timer);
  }

  private async deactivate(type: string, id: string, timer: TimerHandle): Promise<void> {
    const key = this.actorKey(type, id);
    await this.locks.run(key, async () => {
      // A call between the timer and the lock made the actor busy again.
      if (this.active.get(key) !== timer) return;
      this.active.delete(key);
      let status = 0;
      try {
        const answer = await this.channel.callApp(
          "DELETE",
          `/actors/${encodeURIComponent(type)}/${encodeURIComponent(id)}`,
        );
        await answer.arrayBuffer();
        status = answer.status;
      } catch {
        // The app is gone; daprd logs the failed deactivation and forgets the actor all the same.
      }
      this.deactivated.push({ actorType: type, actorId: id, status });
    });
  }

  private actorKey(type: string, id: string): string {
    return `${type}${SEP}${id}`;
  }

  private actorStateKey(type: string, id: string, key: string): string {
    return `${this.channel.appId}${SEP}${type}${SEP}${id}${SEP}${key}`;
  }

  private reminderKey(type: string, id: string, name: string): string {
    return `${type}${SEP}${id}${SEP}${name}`;
  }

  private armReminder(reminder: Reminder): void {
    const key = this.reminderKey(reminder.actorType, reminder.actorId, reminder.name);
    this.reminders.get(key)?.timer?.cancel();
    this.reminders.set(key, reminder);
    this.schedule(reminder, reminder.dueAt - this.channel.clock.now());
  }

  private schedule(reminder: Reminder, inMs: number): void {
    if (this.channel.closed) return;
    reminder.timer = this.channel.clock.setTimer(() => this.channel.track(this.fire(reminder)), inMs);
  }

  private isCurrent(reminder: Reminder): boolean {
    return (
      this.reminders.get(this.reminderKey(reminder.actorType, reminder.actorId, reminder.name)) === reminder
    );
  }

  private async fire(reminder: Reminder): Promise<void> {
    if (!this.isCurrent(reminder)) return;
    const { actorType, actorId, name } = reminder;
    if (!this.hosts(actorType)) {
      reminder.held = true;
      return;
    }
    const path = `/actors/${encodeURIComponent(actorType)}/${encodeURIComponent(actorId)}/method/remind/${encodeURIComponent(name)}`;
    const body = JSON.stringify({
      data: reminder.data,
      dueTime: "0s",
      period: reminder.periodMs ? `${reminder.periodMs}ms` : "",
    });
    const delivered = await this.locks.run(this.actorKey(actorType, actorId), async () => {
      // The turn before this one may have replaced or cancelled the reminder: nothing to deliver.
      if (!this.isCurrent(reminder)) return true;
      try {
        const response = await this.channel.callApp("PUT", path, body, "application/json");
        await response.arrayBuffer();
        if (response.status === 200) this.touch(actorType, actorId);
        return response.status === 200;
      } catch {
        return false;
      }
    });
    if (!this.isCurrent(reminder)) return;
    if (!delivered && reminder.failures < REMINDER_MAX_RETRIES) {
      reminder.failures++;
      this.schedule(reminder, REMINDER_RETRY_INTERVAL_MS);
      return;
    }
    reminder.failures = 0;
    if (reminder.periodMs) {
      const now = this.channel.clock.now();
      while (reminder.dueAt <= now) reminder.dueAt += reminder.periodMs;
      this.schedule(reminder, reminder.dueAt - now);
    } else {
      this.reminders.delete(this.reminderKey(actorType, actorId, name));
    }
  }
}
