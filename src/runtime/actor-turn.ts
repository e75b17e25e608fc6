import { copyKeeping, copyOf } from "./plain-copy.js";
import type { DomainEvent, NewDomainEvent } from "../domain/domain-event.js";
import type { ActorContext, ActorReminders, ActorState, ReminderSpec } from "./actor-runtime.js";
import type { Clock } from "./clock.js";
import { randomUuid } from "../domain/uuid.js";

const DELETED = Symbol("deleted");

export type ReminderChange = { name: string; spec: ReminderSpec } | { name: string; cancelled: true };

/**
 * Reads the actor's committed state for one key (from a cache or the store): a copy, or with
 * `shared` the value itself (ActorState.peek).
 */
export type CommittedStateReader = (key: string, shared: boolean) => Promise<unknown>;

/**
 * What one turn staged: state writes, outbox events and reminder changes. Runtimes commit it as a
 * whole when the actor method returns and drop it when the method throws.
 */
export class ActorTurn implements ActorContext {
  readonly state: ActorState;
  readonly reminders: ActorReminders;
  readonly stagedState = new Map<string, unknown>();
  readonly outbox: DomainEvent[] = [];
  private occurredAt: string | undefined;
  readonly reminderChanges: ReminderChange[] = [];

  constructor(
    readonly actorType: string,
    readonly actorId: string,
    readonly clock: Clock,
    readCommitted: CommittedStateReader,
  ) {
    const staged = this.stagedState;
    this.state = {
      async get<T>(key: string): Promise<T | undefined> {
        if (staged.has(key)) {
          const value = staged.get(key);
          return (value === DELETED ? undefined : value) as T | undefined;
        }
        return (await readCommitted(key, false)) as T | undefined;
      },
      async peek<T>(key: string): Promise<T | undefined> {
        if (staged.has(key)) {
          const value = staged.get(key);
          return (value === DELETED ? undefined : value) as T | undefined;
        }
        return (await readCommitted(key, true)) as T | undefined;
      },
      set(key, value) {
        if (value === undefined)
          throw new TypeError(`Actor state ${key} cannot be set to undefined; delete it`);
        staged.set(key, value);
      },
      delete(key) {
        staged.set(key, DELETED);
      },
    };
    const changes = this.reminderChanges;
    this.reminders = {
      async set(name, spec) {
        changes.push({ name, spec });
      },
      async cancel(name) {
        changes.push({ name, cancelled: true });
      },
    };
  }

  emit(event: NewDomainEvent): void {
    // The turn's events happen together, at its first emit; a date is formatted once per turn.
    this.occurredAt ??= new Date(this.clock.now()).toISOString();
    // Member by member: on Node 20 a spread followed by more members takes a slow path.
    const stamped: DomainEvent = {
      id: randomUuid("urn:event:"),
      type: event.type,
      tenant: event.tenant,
      occurredAt: this.occurredAt,
      correlationUrn: event.correlationUrn,
      data: event.data,
    };
    if (event.caseUrn !== undefined) stamped.caseUrn = event.caseUrn;
    this.outbox.push(stamped);
  }

  /** Staged writes as (key, value) pairs; `undefined` means delete. */
  *changes(): Iterable<[string, unknown]> {
    for (const [key, value] of this.stagedState) yield [key, value === DELETED ? undefined : value];
  }

  get isEmpty(): boolean {
    return this.stagedState.size === 0 && this.outbox.length === 0 && this.reminderChanges.length === 0;
  }

  /** A look (ActorRuntime.look) only reads: one that staged anything fails, and none of it is kept. */
  refuseChangesOfLook(method: string): void {
    if (!this.isEmpty) throw new Error(`${this.actorType}.${method} changed the actor in a look`);
  }
}

/** Actor results and arguments cross the actor boundary as JSON values in both runtimes. */
export function detach<T>(value: T): T {
  return value === undefined || value === null || typeof value !== "object" ? value : copyOf(value);
}

/** As detach, taking the objects in `owned` (copies nobody else holds) as they are. */
export function detachKeeping<T>(value: T, owned: ReadonlySet<object>): T {
  return value === undefined || value === null || typeof value !== "object" ? value : copyKeeping(value, owned);
}

/**
 * The context an actor instance is constructed with: it lives as long as the activation and
 * forwards to whichever turn is running, so actor classes can keep `this.context` in a field.
 */
export class TurnBoundContext implements ActorContext {
  current: ActorTurn | undefined;

  constructor(
    readonly actorType: string,
    readonly actorId: string,
    readonly clock: Clock,
  ) {}

  private turn(): ActorTurn {
    if (!this.current) throw new Error(`${this.actorType}/${this.actorId} used its context outside a turn`);
    return this.current;
  }

  get state(): ActorState {
    return this.turn().state;
  }

  get reminders(): ActorReminders {
    return this.turn().reminders;
  }

  emit(event: NewDomainEvent): void {
    this.turn().emit(event);
  }
}

/** Public methods a caller may invoke: not the constructor, hooks or underscore-private names. */
export function isCallableActorMethod(instance: object, method: string): boolean {
  if (method === "constructor" || method === "receiveReminder" || method.startsWith("_")) return false;
  return typeof (instance as Record<string, unknown>)[method] === "function";
}
