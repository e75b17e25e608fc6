import type { DeepReadonly } from "../domain/deep-readonly.js";
import type { NewDomainEvent } from "../domain/domain-event.js";
import type { EventDataByType } from "../domain/events/catalogue.js";
import type { Clock } from "./clock.js";

/**
 * Virtual actors: one aggregate per (type, id), one turn at a time. Actor classes are plain
 * classes over an ActorContext, so the same class runs in the embedded host and under Dapr.
 *
 * A turn's state changes and outbox events are staged and committed together when the method
 * returns; if it throws, nothing it staged is kept. Events are published after the commit.
 */
export interface ActorState {
  /** A copy of the value: the turn may change it and still throw, leaving the committed value as it was. */
  get<T>(key: string): Promise<T | undefined>;
  /**
   * The value itself, not a copy: for a turn that only looks at a large value, answers with a
   * small part of it (a full flight's case for one group) or decides with pure functions (a new
   * value built from it that shares its unchanged parts). The turn must change no part of it;
   * what the turn answers is copied for its caller either way.
   */
  peek<T>(key: string): Promise<T | undefined>;
  /** Stages the value; once the turn is over it is the actor's state, and nothing may change it. */
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export interface ReminderSpec {
  /** First firing, relative to now. */
  dueInMs: number;
  /** Repeat interval; a one-shot reminder when absent. */
  periodMs?: number;
  data?: unknown;
}

export interface ActorReminders {
  set(name: string, spec: ReminderSpec): Promise<void>;
  cancel(name: string): Promise<void>;
}

/**
 * What an actor's turn may do. `Events` maps the event types it may emit to their data: the product's
 * catalogue (src/domain/events/catalogue.ts), so emitting a type that is not listed there fails the
 * typecheck; the runtime's own tests pass a map of their own.
 */
export interface ActorContext<Events extends object = EventDataByType> {
  readonly actorType: string;
  readonly actorId: string;
  readonly clock: Clock;
  readonly state: ActorState;
  readonly reminders: ActorReminders;
  /** Appends to the turn's outbox; published once the turn commits. */
  emit<T extends keyof Events & string>(event: NewDomainEvent<Events[T]> & { type: T }): void;
}

/** Optional hooks an actor class may implement. */
export interface ActorHooks {
  /** Called in its own turn when a reminder fires. */
  receiveReminder?(name: string, data: unknown): Promise<void>;
}

/** An actor class: its name is the actor type (never minify it). Whatever its events, the runtimes host it. */
export type ActorClass<A = object> = new (context: ActorContext<any>) => A;

type AnyMethod = (arg: any) => Promise<any>;
/** Public async methods an actor exposes to callers (hooks excluded). */
export type ActorMethod<A> = {
  [K in keyof A]: A[K] extends AnyMethod ? (K extends keyof ActorHooks ? never : K) : never;
}[keyof A] &
  string;
/** The method's parameter list: empty, one optional, or one required JSON argument. */
export type ActorArgs<A, M extends keyof A> = A[M] extends (...args: infer P) => Promise<any> ? P : never;
export type ActorResult<A, M extends keyof A> = A[M] extends (...args: any[]) => Promise<infer R> ? R : never;

export interface ActorRuntime {
  register(actorClass: ActorClass): void;
  /** Calls `method` on the actor (type, id) with one JSON argument, activating it when needed. */
  invoke<A, M extends ActorMethod<A>>(
    actorClass: ActorClass<A>,
    actorId: string,
    method: M,
    ...arg: ActorArgs<A, M>
  ): Promise<ActorResult<A, M>>;
  /**
   * As invoke, for a caller that only reads the answer (a use case projecting the case its change
   * left): the answer may share the state the runtime holds instead of being copied for the
   * caller, so it is read-only all the way down.
   */
  invokeReadOnly<A, M extends ActorMethod<A>>(
    actorClass: ActorClass<A>,
    actorId: string,
    method: M,
    ...arg: ActorArgs<A, M>
  ): Promise<DeepReadonly<ActorResult<A, M>>>;
  /**
   * Calls a method that only looks at the actor's state (reads it, never sets it, emits or sets a
   * reminder) without waiting behind the turns queued for the actor where the runtime can: it
   * answers from what the last committed turn left, so a read is not held up by a busy aggregate,
   * and sees all of one commit's state, never some keys before a commit and others after it.
   * A runtime that cannot (Dapr's turn-based actors) runs it as a turn. A look that stages
   * anything fails and changes nothing.
   */
  look<A, M extends ActorMethod<A>>(
    actorClass: ActorClass<A>,
    actorId: string,
    method: M,
    ...arg: ActorArgs<A, M>
  ): Promise<ActorResult<A, M>>;
  /**
   * As look, for a caller that only reads the answer (a case read that shows the case): the answer
   * may share the state the runtime holds instead of being copied for the caller, so it is
   * read-only all the way down.
   */
  peek<A, M extends ActorMethod<A>>(
    actorClass: ActorClass<A>,
    actorId: string,
    method: M,
    ...arg: ActorArgs<A, M>
  ): Promise<DeepReadonly<ActorResult<A, M>>>;
  /** Finishes running turns, flushes outboxes, stops reminders. */
  close(): Promise<void>;
}

export function actorTypeOf(actorClass: ActorClass): string {
  return actorClass.name;
}

/** State keys the runtimes reserve inside every actor's state. */
export const OUTBOX_KEY = "__outbox";
