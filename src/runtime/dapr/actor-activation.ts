import type { AbstractActor } from "@dapr/dapr";
import { type DomainEvent, topicFor } from "../../domain/domain-event.js";
import { DomainError } from "../../domain/domain-error.js";
import { type ActorClass, type ActorHooks, OUTBOX_KEY, type ReminderSpec } from "../actor-runtime.js";
import {
  ActorTurn,
  type ReminderChange,
  TurnBoundContext,
  detach,
  isCallableActorMethod,
} from "../actor-turn.js";
import type { Clock } from "../clock.js";
import { type EventBus, EventBusClosedError } from "../event-bus.js";
import { type InvocationRequest, type TurnOutcome, failedOutcome } from "./turn-outcome.js";

/** The parts of the SDK's state manager a turn uses; every call happens inside the actor's turn. */
export type ActorStatePort = Pick<
  ReturnType<AbstractActor["getStateManager"]>,
  "tryGetState" | "setState" | "tryRemoveState" | "saveState" | "clearCache"
>;

export interface ActorReminderPort {
  register(name: string, spec: ReminderSpec): Promise<void>;
  unregister(name: string): Promise<void>;
}

/** What every activation of a host shares. */
export interface ActivationServices {
  bus: EventBus;
  clock: Clock;
  onError(error: unknown, where: string): void;
  isClosing(): boolean;
  /** Lets the host wait for turns in flight when it closes. */
  track<T>(turn: Promise<T>): Promise<T>;
}

/** The payload registered with every Dapr reminder: the SDK hands the callback only this data. */
export interface ReminderPayload {
  name: string;
  data?: unknown;
}

/**
 * One activated actor under Dapr: the plain actor instance and the turn logic around it. The
 * sidecar already runs one call at a time per actor id; a turn stages state, reminders and events,
 * commits state and outbox in one actor state transaction, then publishes the outbox.
 */
export class DaprActorActivation {
  private readonly context: TurnBoundContext;
  private readonly instance: Record<string, unknown> & ActorHooks;
  /** False only once this activation has seen the outbox empty; saves a state read per turn. */
  private outboxMayHoldEvents = true;

  constructor(
    actorClass: ActorClass,
    actorId: string,
    private readonly state: ActorStatePort,
    private readonly reminders: ActorReminderPort,
    private readonly services: ActivationServices,
  ) {
    this.context = new TurnBoundContext(actorClass.name, actorId, services.clock);
    this.instance = new actorClass(this.context) as Record<string, unknown> & ActorHooks;
  }

  private get where(): string {
    return `${this.context.actorType}/${this.context.actorId}`;
  }

  async invoke(method: string, request: unknown): Promise<TurnOutcome> {
    try {
      if (!isCallableActorMethod(this.instance, method)) {
        throw new Error(`${this.context.actorType} has no callable method ${method}`);
      }
      const { arg, look } = (request ?? {}) as InvocationRequest;
      const fn = this.instance[method] as (arg: unknown) => Promise<unknown>;
      const body = () => fn.call(this.instance, detach(arg));
      return { ok: true, value: await this.turn(body, look ? method : undefined) };
    } catch (error) {
      return failedOutcome(error);
    }
  }

  /** Runs `receiveReminder` as a turn; throws so the sidecar sees the reminder failed. */
  async remind(data: unknown): Promise<void> {
    const payload = (typeof data === "string" ? JSON.parse(data) : data) as ReminderPayload;
    if (typeof payload?.name !== "string") throw new Error(`${this.where} got a reminder without a name`);
    await this.turn(async () => this.instance.receiveReminder?.(payload.name, detach(payload.data)));
  }

  /** `lookOf`: the method, when the turn is a look (ActorRuntime.look). */
  private turn<T>(body: () => Promise<T>, lookOf?: string): Promise<T> {
    if (this.services.isClosing()) {
      return Promise.reject(new DomainError("unavailable", "shutting-down", "The service is shutting down"));
    }
    return this.services.track(this.runTurn(body, lookOf));
  }

  private async runTurn<T>(body: () => Promise<T>, lookOf?: string): Promise<T> {
    // Events a failed publish left behind go out before anything new happens (at least once).
    await this.flushOutbox();
    const turn = new ActorTurn(this.context.actorType, this.context.actorId, this.services.clock, (key, shared) =>
      this.readCommitted(key, shared),
    );
    this.context.current = turn;
    let result: T;
    try {
      result = await body();
    } finally {
      this.context.current = undefined;
    }
    if (lookOf !== undefined) turn.refuseChangesOfLook(lookOf);
    await this.commit(turn);
    await this.flushOutbox();
    return detach(result);
  }

  private async readCommitted(key: string, shared: boolean): Promise<unknown> {
    const [found, value] = await this.state.tryGetState(key);
    if (!found) return undefined;
    // A copy: the state manager caches what it read, and a turn that mutates it may still throw.
    // A peek (`shared`) only looks, and the turn's answer is copied on the way out (runTurn).
    return shared ? value : detach(value);
  }

  private async commit(turn: ActorTurn): Promise<void> {
    if (turn.isEmpty) return;
    if (turn.stagedState.has(OUTBOX_KEY)) throw new Error(`Actor state key ${OUTBOX_KEY} is reserved`);
    const reminders = new Map<string, ReminderChange>(
      turn.reminderChanges.map((change) => [change.name, change]),
    );
    // Reminders live in the sidecar, outside the state transaction. Registering before the commit
    // and cancelling after it means a failure can only leave an extra firing, which guarded actors
    // ignore, never a committed state waiting for a reminder that does not exist.
    for (const change of reminders.values()) {
      if ("spec" in change) await this.reminders.register(change.name, change.spec);
    }
    try {
      for (const [key, value] of turn.changes()) {
        if (value === undefined) await this.state.tryRemoveState(key);
        else await this.state.setState(key, detach(value));
      }
      if (turn.outbox.length > 0) {
        const pending = await this.pendingOutbox();
        this.outboxMayHoldEvents = true;
        await this.state.setState(OUTBOX_KEY, [...pending, ...turn.outbox]);
      }
      await this.state.saveState();
    } catch (error) {
      // The state manager marks changes saved before the transaction runs: forget them all.
      await this.state.clearCache();
      throw error;
    }
    for (const change of reminders.values()) {
      if ("cancelled" in change) {
        await this.reminders
          .unregister(change.name)
          .catch((error) => this.services.onError(error, `${this.where} cancel reminder ${change.name}`));
      }
    }
  }

  private async pendingOutbox(): Promise<DomainEvent[]> {
    if (!this.outboxMayHoldEvents) return [];
    const [found, events] = await this.state.tryGetState(OUTBOX_KEY);
    return found && Array.isArray(events) ? (events as DomainEvent[]) : [];
  }

  /** Publishes the stored outbox in order and keeps whatever could not be published. Never throws. */
  private async flushOutbox(): Promise<void> {
    try {
      const events = await this.pendingOutbox();
      let published = 0;
      for (const event of events) {
        try {
          await this.services.bus.publish(topicFor(event), event);
        } catch (error) {
          if (!(error instanceof EventBusClosedError))
            this.services.onError(error, `${this.where} publish ${event.id}`);
          break;
        }
        published++;
      }
      if (published > 0) {
        if (published === events.length) await this.state.tryRemoveState(OUTBOX_KEY);
        else await this.state.setState(OUTBOX_KEY, events.slice(published));
        await this.state.saveState();
      }
      this.outboxMayHoldEvents = published < events.length;
    } catch (error) {
      await this.state.clearCache();
      this.outboxMayHoldEvents = true;
      this.services.onError(error, `${this.where} outbox`);
    }
  }
}
