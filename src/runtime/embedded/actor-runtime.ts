import { topicFor } from "../../domain/domain-event.js";
import type { DomainEvent } from "../../domain/domain-event.js";
import { DomainError } from "../../domain/domain-error.js";
import type { ActorClass, ActorHooks, ActorRuntime } from "../actor-runtime.js";
import { ActorTurn, TurnBoundContext, detach, detachKeeping, isCallableActorMethod } from "../actor-turn.js";
import type { Clock, TimerHandle } from "../clock.js";
import { type EventBus, EventBusClosedError } from "../event-bus.js";
import type { ScannableStateStore, StateOperation } from "../state-store.js";
import { isStoreUnavailable, storeOutageWaitMs } from "../store-unavailable-error.js";
import { ReminderSchedule } from "./reminder-schedule.js";
import { SerialMailbox } from "./serial-mailbox.js";

export interface EmbeddedActorRuntimeOptions {
  store: ScannableStateStore;
  bus: EventBus;
  clock: Clock;
  /** An actor with no turn for this long is deactivated (its state stays in the store). Default 15 min. */
  idleTimeoutMs?: number;
  /**
   * Most activations kept at once. Past it, idle ones not used since the last round go first.
   * Default 20,000.
   */
  maxActivations?: number;
  /**
   * Delay before a reminder whose turn threw fires again, times its failures in a row (up to 12).
   * Default 5 s. A turn that found the store unavailable fires again after `storeOutageWaitMs`.
   */
  reminderRetryMs?: number;
  onError?: (error: unknown, where: string) => void;
}

interface StoredReminder {
  dueAt: number;
  periodMs?: number;
  data?: unknown;
}

interface Activation {
  type: string;
  id: string;
  instance: Record<string, unknown> & ActorHooks;
  context: TurnBoundContext;
  mailbox: SerialMailbox;
  /**
   * Committed state values read or written so far; `undefined` records a known-missing key. While
   * a look holds it, a commit puts in a new map and never changes this one's values, so the look
   * sees the state of one commit whole (ActorRuntime.look); reads add the keys they load.
   */
  committed: Map<string, unknown>;
  /** Looks under way over this activation's state: while there are any, a commit copies `committed`. */
  looks: number;
  /** The commit under way: the keys it writes, and when it is over. */
  committing: { keys: ReadonlySet<string>; over: Promise<void> } | undefined;
  lastUsed: number;
  /** Used since the last eviction round passed it: it is spared once. */
  recent: boolean;
}

const SEP = "||";
// Joined, not concatenated: a template literal makes a rope of its pieces, which a Map keeps whole
// behind a key nobody looks up again (about 210 bytes a key instead of 60: some 30 MB per 1,000
// intake cases of full flights, whose sub-case actors take one turn each).
const activationKey = (type: string, id: string) => [type, id].join(SEP);
const stateKey = (type: string, id: string, key: string) => ["actor", type, id, key].join(SEP);
const reminderKey = (type: string, id: string, name: string) => ["reminder", type, id, name].join(SEP);
const outboxKey = (type: string, id: string, eventId: string) => ["outbox", type, id, eventId].join(SEP);

/**
 * Virtual actors in one process: one serial mailbox per actor id, state committed to the state
 * store after each successful turn together with the turn's outbox events and reminder changes.
 * Outbox entries are deleted once the bus has delivered them, so a restart republishes whatever
 * was committed but not yet delivered.
 */
export class EmbeddedActorRuntime implements ActorRuntime {
  private readonly types = new Map<string, ActorClass>();
  private readonly activations = new Map<string, Activation>();
  private readonly reminders: ReminderSchedule;
  private readonly reminderFailures = new Map<string, number>();
  private readonly flushes = new Set<Promise<void>>();
  private readonly firings = new Set<Promise<void>>();
  private readonly idleTimeoutMs: number;
  private readonly maxActivations: number;
  private readonly reminderRetryMs: number;
  private sweepTimer: TimerHandle | undefined;
  private closing = false;

  constructor(private readonly options: EmbeddedActorRuntimeOptions) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 15 * 60_000;
    this.maxActivations = options.maxActivations ?? 20_000;
    this.reminderRetryMs = options.reminderRetryMs ?? 5_000;
    this.reminders = new ReminderSchedule(options.clock, ({ type, id, name }) => {
      const firing = this.fireReminder(type, id, name).finally(() => this.firings.delete(firing));
      this.firings.add(firing);
    });
  }

  register(actorClass: ActorClass): void {
    this.types.set(actorClass.name, actorClass);
  }

  /** Re-arms persisted reminders and republishes committed but undelivered outbox events. */
  async start(): Promise<void> {
    const { store } = this.options;
    const reminderKeys = await store.keys(`reminder${SEP}`);
    const reminders = await store.getMany<StoredReminder>(reminderKeys);
    for (const [key, entry] of reminders) {
      const [, type, id, name] = key.split(SEP) as [string, string, string, string];
      if (this.types.has(type)) this.armReminder(type, id, name, entry.value.dueAt);
    }
    const pending = await store.getMany<DomainEvent>(await store.keys(`outbox${SEP}`));
    for (const [key, entry] of pending) this.flush(key, entry.value);
    this.scheduleSweep();
  }

  invoke(actorClass: ActorClass<any>, actorId: string, method: string, ...args: unknown[]): Promise<any> {
    return this.invokeAnswering(actorClass, actorId, method, args[0], "copied");
  }

  /**
   * A turn whose answer is not copied: what the method answers with may be committed state (or
   * values the turn just committed), which no turn changes in place, so it stays as it was answered.
   */
  invokeReadOnly(
    actorClass: ActorClass<any>,
    actorId: string,
    method: string,
    ...args: unknown[]
  ): Promise<any> {
    return this.invokeAnswering(actorClass, actorId, method, args[0], "shared");
  }

  private invokeAnswering(
    actorClass: ActorClass<any>,
    actorId: string,
    method: string,
    arg: unknown,
    answer: TurnAnswer,
  ): Promise<unknown> {
    const activation = this.activate(actorClass.name, actorId);
    if (!isCallableActorMethod(activation.instance, method)) {
      return Promise.reject(new Error(`${actorClass.name} has no callable method ${method}`));
    }
    const input = detach(arg);
    return activation.mailbox.run(() =>
      this.turn(
        activation,
        () => (activation.instance[method] as (a: unknown) => Promise<unknown>)(input),
        undefined,
        answer,
      ),
    );
  }

  /**
   * The method runs at once on an instance of its own, over the committed state (ActorRuntime.look):
   * the activation's instance and context belong to its queued turns. It reads the state as the
   * last commit left it when the look began, all of it, whatever commits end while it runs.
   */
  look(actorClass: ActorClass<any>, actorId: string, method: string, ...args: unknown[]): Promise<any> {
    return this.lookAnswering(actorClass, actorId, method, args[0], detach);
  }

  /**
   * A look whose answer is not copied: what the method answers with may be committed state, which
   * no turn changes in place (a commit puts new values in `committed`), so it stays as it was read.
   */
  peek(actorClass: ActorClass<any>, actorId: string, method: string, ...args: unknown[]): Promise<any> {
    return this.lookAnswering(actorClass, actorId, method, args[0], (result) => result);
  }

  private async lookAnswering(
    actorClass: ActorClass<any>,
    actorId: string,
    method: string,
    arg: unknown,
    answer: (result: unknown) => unknown,
  ): Promise<unknown> {
    for (;;) {
      // Activated again each time: the actor may have been deactivated, and activated anew since.
      const activation = this.activate(actorClass.name, actorId);
      if (!isCallableActorMethod(activation.instance, method)) {
        throw new Error(`${actorClass.name} has no callable method ${method}`);
      }
      const looked = await this.lookOnce(activation, actorClass, method, arg);
      if (looked.answered) return answer(looked.result);
      await activation.committing?.over;
    }
  }

  /**
   * One try of a look over the state `activation.committed` holds now. A key it lacks is read from
   * the store, which holds that state's value of the key unless a commit since has written the
   * key: that commit then holds it in its map, or is writing it, or it is a commit of a new
   * activation of the actor (this one was deactivated). Then the look starts again, over the state
   * that commit leaves (the key is in it, so starting again ends).
   */
  private async lookOnce(
    activation: Activation,
    actorClass: ActorClass<any>,
    method: string,
    arg: unknown,
  ): Promise<{ answered: true; result: unknown } | { answered: false }> {
    const { type, id } = activation;
    const seen = activation.committed;
    let overtaken = false;
    const context = new TurnBoundContext(type, id, this.options.clock);
    const turn = new ActorTurn(type, id, this.options.clock, async (key, shared) => {
      if (!seen.has(key)) {
        const entry = await this.options.store.get(stateKey(type, id, key));
        if (
          activation.committed.has(key) ||
          activation.committing?.keys.has(key) ||
          this.activations.get(activationKey(type, id)) !== activation
        ) {
          overtaken = true;
          throw new Error(`a commit of ${type} ${id} overtook a look`);
        }
        activation.committed.set(key, entry?.value);
        seen.set(key, entry?.value);
      }
      return shared ? seen.get(key) : detach(seen.get(key));
    });
    context.current = turn;
    const instance = new actorClass(context) as Activation["instance"];
    let result: unknown;
    activation.looks++;
    try {
      result = await (instance[method] as (a: unknown) => Promise<unknown>)(detach(arg));
    } catch (error) {
      if (overtaken) return { answered: false };
      throw error;
    } finally {
      activation.looks--;
    }
    // A method that caught the overtaken read answered from it.
    if (overtaken) return { answered: false };
    turn.refuseChangesOfLook(method);
    return { answered: true, result };
  }

  /**
   * Refuses new calls, stops reminders and finishes the turns already queued. Outbox events still
   * being delivered keep going: close the bus to abandon them (they stay in the store), then
   * `close()` returns at once.
   */
  async drain(): Promise<void> {
    this.closing = true;
    this.sweepTimer?.cancel();
    this.reminders.clear();
    await Promise.all([...this.activations.values()].map((a) => a.mailbox.drain()));
  }

  async close(): Promise<void> {
    await this.drain();
    await Promise.allSettled([...this.flushes]);
  }

  /**
   * Resolves once no turn or reminder firing is in flight: a point where tests driving a manual
   * clock can look at the results, whatever the store's I/O latency. Outbox deliveries are not
   * awaited: one waiting for a redelivery would wait for the clock.
   */
  async idle(): Promise<void> {
    for (;;) {
      const pending = [
        ...this.firings,
        ...[...this.activations.values()].filter((a) => a.mailbox.pending > 0).map((a) => a.mailbox.drain()),
      ];
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  /** Number of live activations (for tests and metrics). */
  get activeCount(): number {
    return this.activations.size;
  }

  private activate(type: string, id: string): Activation {
    if (this.closing) throw new DomainError("unavailable", "shutting-down", "The service is shutting down");
    const key = activationKey(type, id);
    let activation = this.activations.get(key);
    if (!activation) {
      const actorClass = this.types.get(type);
      if (!actorClass) throw new Error(`Actor type ${type} is not registered`);
      const context = new TurnBoundContext(type, id, this.options.clock);
      const instance = new actorClass(context) as Activation["instance"];
      activation = {
        type,
        id,
        instance,
        context,
        mailbox: new SerialMailbox(),
        committed: new Map(),
        looks: 0,
        committing: undefined,
        lastUsed: 0,
        recent: true,
      };
      this.activations.set(key, activation);
      if (this.activations.size > this.maxActivations) this.evict(activation);
    } else {
      activation.recent = true;
    }
    activation.lastUsed = this.options.clock.now();
    return activation;
  }

  /**
   * Brings the activations down to nine tenths of the bound, so that rounds are rare: a round
   * walks them oldest first, deactivates the idle ones not used since it last passed them and
   * moves the others to the back (second chance). An intake of full flights activates 150
   * sub-cases per case that are seldom called again; their state stays in the store. `caller`'s
   * turn is not queued yet: it stays.
   */
  private evict(caller: Activation): void {
    let excess = this.activations.size - Math.floor(this.maxActivations * 0.9);
    let budget = this.activations.size * 2;
    for (const [key, activation] of this.activations) {
      if (excess === 0 || budget-- === 0) return;
      if (activation.mailbox.pending > 0 || activation === caller) continue;
      this.activations.delete(key);
      if (activation.recent) {
        activation.recent = false;
        this.activations.set(key, activation);
      } else {
        excess--;
      }
    }
  }

  private async turn<T>(
    activation: Activation,
    body: (turn: ActorTurn) => Promise<T>,
    prepare?: (turn: ActorTurn) => void,
    answer: TurnAnswer = "copied",
  ): Promise<T> {
    // The copies this turn's reads made: nobody else holds them, so a turn that changed nothing
    // hands them to its caller as they are instead of copying them again.
    const read = new Set<object>();
    const turn = new ActorTurn(activation.type, activation.id, this.options.clock, (key, shared) =>
      this.readCommitted(activation, key, shared ? undefined : read),
    );
    prepare?.(turn);
    activation.context.current = turn;
    let result: T;
    try {
      result = await body(turn);
    } finally {
      activation.context.current = undefined;
    }
    // What a turn staged or emitted may share parts with what it read (the cache and the bus then
    // hold them): only the result of a turn that did neither may keep the reads' copies.
    const changed = !turn.isEmpty;
    if (changed) await this.commit(activation, turn);
    activation.lastUsed = this.options.clock.now();
    if (answer === "shared") return result;
    return changed ? detach(result) : detachKeeping(result, read);
  }

  /** The committed value: a copy, noted in `read`, or without `read` the cached value itself (a peek). */
  private async readCommitted(activation: Activation, key: string, read?: Set<object>): Promise<unknown> {
    // No commit of the actor runs during its turn: the store holds the value of `committed`.
    if (!activation.committed.has(key)) {
      const entry = await this.options.store.get(stateKey(activation.type, activation.id, key));
      activation.committed.set(key, entry?.value);
    }
    // A peek is not in `read`: whatever of it the turn answers with is copied on the way out.
    if (!read) return activation.committed.get(key);
    // A copy, so an actor that mutates what it read and then throws leaves committed state intact.
    const copy = detach(activation.committed.get(key));
    if (typeof copy === "object" && copy !== null) read.add(copy);
    return copy;
  }

  private async commit(activation: Activation, turn: ActorTurn): Promise<void> {
    if (turn.isEmpty) return;
    const { type, id } = activation;
    const operations: StateOperation[] = [];
    const changes = [...turn.changes()];
    for (const [key, value] of changes) {
      const k = stateKey(type, id, key);
      operations.push(
        value === undefined ? { operation: "delete", key: k } : { operation: "upsert", key: k, value },
      );
    }
    for (const event of turn.outbox) {
      operations.push({ operation: "upsert", key: outboxKey(type, id, event.id), value: event });
    }
    const reminders = new Map<string, StoredReminder | undefined>();
    for (const change of turn.reminderChanges) {
      reminders.set(
        change.name,
        "cancelled" in change
          ? undefined
          : {
              dueAt: this.options.clock.now() + change.spec.dueInMs,
              periodMs: change.spec.periodMs,
              data: change.spec.data,
            },
      );
    }
    for (const [name, reminder] of reminders) {
      const k = reminderKey(type, id, name);
      operations.push(
        reminder ? { operation: "upsert", key: k, value: reminder } : { operation: "delete", key: k },
      );
    }
    let over!: () => void;
    activation.committing = {
      keys: new Set(changes.map(([key]) => key)),
      over: new Promise((resolve) => {
        over = resolve;
      }),
    };
    try {
      // The store takes the staged values as they are (StateStore), and so does `committed`: the
      // turn is over, and neither the runtime nor a later turn changes a committed value (reads
      // get copies; a peek only looks).
      await this.options.store.transact(operations);
      // All of the commit's values at once, in a new map if a look holds the old one (it keeps it
      // whole); else in place: the map holds every key the actor has read (a wallet card's seen
      // event ids), and copying it on each commit made a card's turns slower the more it had.
      const committed = activation.looks > 0 ? new Map(activation.committed) : activation.committed;
      for (const [key, value] of changes) committed.set(key, value);
      activation.committed = committed;
    } finally {
      activation.committing = undefined;
      over();
    }

    for (const [name, reminder] of reminders) {
      if (reminder) this.armReminder(type, id, name, reminder.dueAt);
      else this.disarmReminder(type, id, name);
    }
    for (const event of turn.outbox) this.flush(outboxKey(type, id, event.id), event);
  }

  private flush(key: string, event: DomainEvent): void {
    const flush = this.options.bus
      .publish(topicFor(event), event)
      .then(() => this.options.store.delete(key))
      // The entry stays in the store and is republished by the next start().
      .catch((error) => {
        if (!(error instanceof EventBusClosedError)) this.options.onError?.(error, `outbox ${key}`);
      })
      .finally(() => this.flushes.delete(flush));
    this.flushes.add(flush);
  }

  private armReminder(type: string, id: string, name: string, dueAt: number): void {
    if (this.closing) return;
    this.reminders.arm(reminderKey(type, id, name), type, id, name, dueAt);
  }

  private disarmReminder(type: string, id: string, name: string): void {
    this.reminders.disarm(reminderKey(type, id, name));
  }

  private async fireReminder(type: string, id: string, name: string): Promise<void> {
    if (this.closing) return;
    const key = reminderKey(type, id, name);
    const activation = this.activate(type, id);
    try {
      await activation.mailbox.run(async () => {
        const stored = (await this.options.store.get<StoredReminder>(key))?.value;
        // Cancelled or moved since the timer was armed: the newer record has its own timer.
        if (!stored || stored.dueAt > this.options.clock.now()) return;
        await this.turn(
          activation,
          async () => activation.instance.receiveReminder?.(name, detach(stored.data)),
          (turn) =>
            turn.reminderChanges.push(
              stored.periodMs
                ? { name, spec: { dueInMs: stored.periodMs, periodMs: stored.periodMs, data: stored.data } }
                : { name, cancelled: true },
            ),
        );
      });
      this.reminderFailures.delete(key);
    } catch (error) {
      this.options.onError?.(error, `reminder ${key}`);
      const failures = (this.reminderFailures.get(key) ?? 0) + 1;
      this.reminderFailures.set(key, failures);
      // A store outage is waited out at a short backoff: the reminder fires soon after it ends.
      const waitMs = isStoreUnavailable(error)
        ? storeOutageWaitMs(failures)
        : this.reminderRetryMs * Math.min(failures, 12);
      this.armReminder(type, id, name, this.options.clock.now() + waitMs);
    }
  }

  private scheduleSweep(): void {
    if (this.closing) return;
    this.sweepTimer = this.options.clock.setTimer(
      () => {
        const cutoff = this.options.clock.now() - this.idleTimeoutMs;
        for (const [key, activation] of this.activations) {
          if (activation.lastUsed <= cutoff && activation.mailbox.pending === 0) this.activations.delete(key);
        }
        this.scheduleSweep();
      },
      Math.max(1_000, this.idleTimeoutMs / 2),
    );
  }
}

/** How a turn hands its answer to the caller: a copy of its own, or as it is (read-only). */
type TurnAnswer = "copied" | "shared";
