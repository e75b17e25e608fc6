import { type Clock, systemClock, type TimerHandle } from "../../clock.js";
import { EtagMismatchError, type ScannableStateStore, type StateStore } from "../../state-store.js";
import { CancellableWaits } from "../../cancellable-waits.js";
import { isStoreUnavailable, storeOutageWaitMs } from "../../store-unavailable-error.js";
import {
  type ActivityOutcome,
  failureDetails,
  type HistoryEvent,
  type OrchestratorResult,
} from "./durable-task.js";
import {
  encodeEvent,
  eventRaised,
  executionTerminated,
  orchestratorStarted,
  subOrchestrationFailed,
  taskCompleted,
  taskFailed,
  timerFired,
} from "./history-events.js";
import { InstanceStore } from "./instance-store.js";
import { type CreateInstanceRequest, InstanceView } from "./instance-view.js";
import { KeyedLock } from "./keyed-lock.js";
import { type ForeignWrite, type StepEnvironment, StepPlanner } from "./step-planner.js";
import { isFinished, type StoredInstance } from "./stored-instance.js";
import type {
  ActivityWorkItem,
  CommittedStep,
  OrchestrationWorkItem,
  UnsavedResult,
  WorkItem,
  WorkItemSink,
} from "./work-items.js";

export type { CreateInstanceRequest } from "./instance-view.js";

export interface WorkflowBackendOptions {
  /** Restart recovery needs a ScannableStateStore; any StateStore runs workflows. */
  store: StateStore;
  clock?: Clock;
  /** Prefix of the state keys that hold instances. */
  keyPrefix?: string;
  /** Receives failures of background work (timers, dispatch) that have no caller to throw to. */
  onError?: (error: unknown) => void;
}

export class WorkflowInstanceNotFoundError extends Error {
  constructor(readonly instanceId: string) {
    super(`Workflow instance ${instanceId} does not exist`);
    this.name = "WorkflowInstanceNotFoundError";
  }
}

export class WorkflowWaitTimeoutError extends Error {
  constructor(
    readonly instanceId: string,
    readonly timeoutMs: number,
  ) {
    super(`Timed out after ${timeoutMs} ms waiting for workflow instance ${instanceId}`);
    this.name = "WorkflowWaitTimeoutError";
  }
}

const MAX_COMMIT_ATTEMPTS = 20;

/**
 * The durable half of the workflow engine: keeps every instance's history in a state store,
 * applies the actions an orchestrator step returns, and hands out orchestration and activity work
 * items to whichever worker is attached (in-process, or a remote SDK worker behind the gRPC
 * stand-in). Each instance commits under an in-process lock and an ETag, so neither a second
 * operation here nor another process can commit over a change it has not seen.
 */
export class WorkflowBackend {
  private readonly store: StateStore;
  private readonly clock: Clock;
  private readonly keyPrefix: string;
  private readonly instances: InstanceStore;
  private readonly onError: (error: unknown) => void;
  private readonly cache = new Map<string, CachedInstance>();
  private readonly locks = new KeyedLock();
  private readonly inFlight = new Set<string>();
  private readonly timers = new Map<string, Map<number, TimerHandle>>();
  private readonly watchers = new Map<string, Set<Watcher>>();
  private readonly undelivered: WorkItem[] = [];
  /** Background work waiting out a store outage (`outlasting`): stopOutageWaits() ends the waits. */
  private readonly outageWaits: CancellableWaits;
  private sink: WorkItemSink | undefined;
  private started = false;
  private closed = false;
  private readonly stepEnvironment: StepEnvironment = {
    exists: async (instanceId) => (await this.peek(instanceId)) !== undefined,
    parentNotice: (child, notice) => this.parentNotice(child, notice),
    deliver: (item) => this.deliver(item),
    armTimer: (instanceId, executionId, timerId, fireAt) =>
      this.armTimer(instanceId, executionId, timerId, fireAt),
    cancelTimers: (instanceId) => this.cancelTimers(instanceId),
    sendEvent: (instanceId, name, input) =>
      this.outlasting(() => this.raiseEvent(instanceId, name, input)).catch(this.onError),
    dispatch: (view) => this.dispatch(view),
    requestDispatch: (instanceId) => this.requestDispatch(instanceId),
  };

  constructor(options: WorkflowBackendOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.outageWaits = new CancellableWaits(this.clock);
    this.keyPrefix = options.keyPrefix ?? "workflow||";
    this.instances = new InstanceStore(this.store, this.keyPrefix);
    this.onError = options.onError ?? ((error) => console.error("workflow backend:", error));
  }

  /** Work items go to `sink` once the backend has started; until then they wait. */
  attach(sink: WorkItemSink): void {
    this.sink = sink;
    this.flush();
  }

  /** Stops handing out work; what comes up waits for the next attach (or is found again by the next start). */
  detach(): void {
    this.sink = undefined;
  }

  /**
   * Shutdown has begun: background work waiting out a store outage gives up now, with the outage's
   * error, so the workers can end (the next start picks the instances up again). Call it before
   * closing the worker; close() calls it too.
   */
  stopOutageWaits(): void {
    this.outageWaits.cancelAll();
  }

  /** Picks up unfinished instances left in the store: re-arms their timers and re-issues their pending work. */
  async start(): Promise<void> {
    if (this.started) return;
    if (isScannable(this.store)) {
      for (const key of await this.store.keys(this.keyPrefix)) {
        await this.resume(key.slice(this.keyPrefix.length));
      }
    }
    this.started = true;
    this.flush();
  }

  /** Stops timers and deliveries and rejects waiters; durable state stays for the next start. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sink = undefined;
    for (const instanceId of this.timers.keys()) this.cancelTimers(instanceId);
    this.stopOutageWaits();
    for (const [instanceId, watchers] of this.watchers) {
      for (const watcher of watchers)
        watcher.fail(new Error(`Workflow backend closed while waiting for ${instanceId}`));
    }
    this.watchers.clear();
    await this.locks.idle();
  }

  /** Creates the instance unless one with this id exists; returns whether it did. */
  createInstance(request: CreateInstanceRequest): Promise<boolean> {
    return this.mutate(request.instanceId, (current) => {
      if (current) return { result: false };
      const next = InstanceView.create(request, this.clock.now());
      return { result: true, next, after: () => this.dispatch(next) };
    });
  }

  raiseEvent(instanceId: string, name: string, input?: string): Promise<void> {
    return this.mutate(instanceId, (current) => {
      if (!current) throw new WorkflowInstanceNotFoundError(instanceId);
      if (isFinished(current.view.record)) return { result: undefined };
      const next = current.view.withInbox([eventRaised(name, input)], {}, this.clock.now());
      return { result: undefined, next, after: () => this.dispatch(next) };
    });
  }

  /** Ends the instance at once, without waiting for a worker, and then its running children. */
  async terminate(instanceId: string, output?: string): Promise<void> {
    const children = await this.mutate(instanceId, async (current) => {
      if (!current) throw new WorkflowInstanceNotFoundError(instanceId);
      const record = current.view.record;
      if (isFinished(record)) return { result: [] };
      const terminated: StoredInstance = {
        ...record,
        status: "TERMINATED",
        ...(output === undefined ? {} : { output }),
        lastUpdatedAt: this.clock.now(),
        turn: record.turn + 1,
        history: [...record.history, ...record.inbox, encodeEvent(executionTerminated(output))],
        inbox: [],
        activities: {},
        timers: {},
        children: {},
      };
      const parentWrite = await this.parentNotice(record, (taskId) =>
        subOrchestrationFailed(
          taskId,
          failureDetails(new Error(`Child workflow ${instanceId} was terminated`)),
        ),
      );
      return {
        result: Object.values(record.children),
        next: new InstanceView(terminated),
        foreign: parentWrite ? [parentWrite] : [],
        after: () => {
          if (parentWrite) this.requestDispatch(parentWrite.record.instanceId);
        },
      };
    });
    await Promise.all(children.map((child) => this.terminate(child)));
  }

  async getInstance(instanceId: string): Promise<StoredInstance | undefined> {
    return (await this.peek(instanceId))?.record;
  }

  /**
   * Resolves with the instance once `predicate` holds for it, from commit notifications (no
   * polling); rejects after `timeoutMs`, or when `signal` aborts.
   */
  waitFor(
    instanceId: string,
    predicate: (instance: StoredInstance) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<StoredInstance> {
    this.assertOpen();
    return new Promise((resolve, reject) => {
      const watchers = this.watchers.get(instanceId) ?? new Set<Watcher>();
      this.watchers.set(instanceId, watchers);
      const finish = (outcome: StoredInstance | Error) => {
        clearTimeout(timeout);
        signal?.removeEventListener("abort", abort);
        watchers.delete(watcher);
        if (watchers.size === 0 && this.watchers.get(instanceId) === watchers)
          this.watchers.delete(instanceId);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const watcher: Watcher = {
        check: (instance) => {
          if (predicate(instance)) finish(instance);
        },
        fail: finish,
      };
      const abort = () => finish(new Error(`Stopped waiting for workflow instance ${instanceId}`));
      const timeout = setTimeout(
        () => finish(new WorkflowWaitTimeoutError(instanceId, timeoutMs)),
        timeoutMs,
      );
      timeout.unref?.();
      signal?.addEventListener("abort", abort);
      watchers.add(watcher);
      if (signal?.aborted) abort();
      this.peek(instanceId).then(
        (current) => {
          if (!watchers.has(watcher)) return;
          if (current) watcher.check(current.record);
          else finish(new WorkflowInstanceNotFoundError(instanceId));
        },
        (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }

  /**
   * Commits one orchestrator step computed from `item` and tells what it added; a step computed
   * from an outdated turn is dropped (undefined).
   */
  async completeOrchestration(
    item: OrchestrationWorkItem,
    result: OrchestratorResult,
  ): Promise<CommittedStep | undefined> {
    const instanceId = item.instanceId;
    try {
      return await this.outlasting(() =>
        this.mutate<CommittedStep | undefined>(instanceId, async (current) => {
          const record = current?.view.record;
          if (!current || !record || isFinished(record)) {
            return { result: undefined, after: () => this.inFlight.delete(instanceId) };
          }
          if (record.turn !== item.turn || record.executionId !== item.executionId) {
            // Another process stepped this instance meanwhile: re-read it before stepping again.
            return {
              result: undefined,
              after: () => {
                this.inFlight.delete(instanceId);
                this.cache.delete(instanceId);
                this.saveUnsaved(item);
                this.requestDispatch(instanceId);
              },
            };
          }
          const step = await new StepPlanner(this.stepEnvironment, current.view, item, this.clock.now()).plan(
            result,
          );
          return {
            ...step,
            after: () => {
              this.inFlight.delete(instanceId);
              step.after();
            },
          };
        }),
      );
    } catch (error) {
      // Left in flight, the instance would never step again in this process; a restart retries it
      // (and re-runs the activities whose results this step carried unsaved).
      this.inFlight.delete(instanceId);
      throw error;
    }
  }

  /**
   * Records an activity's result. When no step of its instance is out, the result goes straight
   * into the next step, whose commit stores it: one write instead of two. A crash before that
   * commit re-runs the activity, which activities must tolerate anyway (delivery is at least once).
   */
  completeActivity(item: ActivityWorkItem, outcome: ActivityOutcome): Promise<void> {
    return this.outlasting(() =>
      this.mutate(item.instanceId, (current) => {
        const view = runningExecution(current, item.executionId);
        if (!view || !(item.taskId in view.record.activities)) return { result: undefined };
        const event = outcome.ok
          ? taskCompleted(item.taskId, outcome.result)
          : taskFailed(item.taskId, outcome.failure);
        if (this.canStepNow(item.instanceId)) {
          return { result: undefined, after: () => this.dispatch(view, [{ taskId: item.taskId, event }]) };
        }
        const { [item.taskId]: _done, ...activities } = view.record.activities;
        const next = view.withInbox([event], { activities }, this.clock.now());
        return { result: undefined, next, after: () => this.dispatch(next) };
      }),
    );
  }

  /** Gives a delivered item back (its worker went away or stopped) so it is delivered again. */
  abandon(item: WorkItem): void {
    if (item.kind === "orchestration") {
      this.inFlight.delete(item.instanceId);
      this.saveUnsaved(item);
      this.requestDispatch(item.instanceId);
    } else {
      this.deliver(item);
    }
  }

  /** The parent's record with `notice` for the child's task appended, if the parent still waits for it. */
  private async parentNotice(
    child: StoredInstance,
    notice: (taskId: number) => HistoryEvent,
  ): Promise<ForeignWrite | undefined> {
    const link = child.parent;
    if (!link) return undefined;
    const parent = await this.peek(link.instanceId);
    if (!parent || isFinished(parent.record) || parent.record.children[link.taskId] !== child.instanceId) {
      return undefined;
    }
    const { [link.taskId]: _done, ...children } = parent.record.children;
    const record: StoredInstance = {
      ...parent.record,
      children,
      inbox: [...parent.record.inbox, encodeEvent(notice(link.taskId))],
      lastUpdatedAt: this.clock.now(),
    };
    return { record, etag: parent.etag };
  }

  private deliver(item: WorkItem): void {
    if (this.closed) return;
    if (this.sink && this.started) this.sink.deliver(item);
    else this.undelivered.push(item);
  }

  private armTimer(instanceId: string, executionId: string, timerId: number, fireAt: number): void {
    if (this.closed) return;
    const fire = () => {
      this.timers.get(instanceId)?.delete(timerId);
      this.fireTimer(instanceId, executionId, timerId, fireAt).catch(this.onError);
    };
    const delay = fireAt - this.clock.now();
    if (delay <= 0) {
      fire();
      return;
    }
    const handles = this.timers.get(instanceId) ?? new Map<number, TimerHandle>();
    this.timers.set(instanceId, handles);
    handles.set(timerId, this.clock.setTimer(fire, delay));
  }

  private cancelTimers(instanceId: string): void {
    const handles = this.timers.get(instanceId);
    if (!handles) return;
    for (const handle of handles.values()) handle.cancel();
    this.timers.delete(instanceId);
  }

  /** Hands out the next orchestrator step of an instance, unless one is already out or nothing is new. */
  private dispatch(view: InstanceView, unsaved: UnsavedResult[] = []): void {
    const record = view.record;
    if (this.inFlight.has(record.instanceId) || isFinished(record)) return;
    if (record.inbox.length === 0 && unsaved.length === 0) return;
    this.inFlight.add(record.instanceId);
    this.deliver({
      kind: "orchestration",
      instanceId: record.instanceId,
      executionId: record.executionId,
      turn: record.turn,
      consumed: record.inbox.length,
      unsaved,
      pastEvents: () => view.history(),
      newEvents: [
        orchestratorStarted(this.clock.now()),
        ...view.inbox(),
        ...unsaved.map((result) => result.event),
      ],
    });
  }

  /** Whether a step handed out now would go straight to a worker (and so may carry unsaved results). */
  private canStepNow(instanceId: string): boolean {
    return this.started && !this.closed && this.sink !== undefined && !this.inFlight.has(instanceId);
  }

  /** Stores in the inbox the results a dropped step carried, unless they no longer matter. */
  private saveUnsaved(item: OrchestrationWorkItem): void {
    if (item.unsaved.length === 0 || this.closed) return;
    this.outlasting(() =>
      this.mutate(item.instanceId, (current) => {
        const view = runningExecution(current, item.executionId);
        const pending = item.unsaved.filter((result) => view && result.taskId in view.record.activities);
        if (!view || pending.length === 0) return { result: undefined };
        const activities = { ...view.record.activities };
        for (const result of pending) delete activities[result.taskId];
        const next = view.withInbox(
          pending.map((result) => result.event),
          { activities },
          this.clock.now(),
        );
        return { result: undefined, next, after: () => this.dispatch(next) };
      }),
    ).catch(this.onError);
  }

  /** Dispatches an instance this operation does not hold the lock of. */
  private requestDispatch(instanceId: string): void {
    if (this.closed) return;
    this.outlasting(() =>
      this.locks.run(instanceId, async () => {
        const current = await this.load(instanceId);
        if (current) this.dispatch(current.view);
      }),
    ).catch(this.onError);
  }

  private fireTimer(instanceId: string, executionId: string, timerId: number, fireAt: number): Promise<void> {
    return this.outlasting(() =>
      this.mutate(instanceId, (current) => {
        const view = runningExecution(current, executionId);
        if (!view || !(timerId in view.record.timers)) return { result: undefined };
        const { [timerId]: _fired, ...timers } = view.record.timers;
        const next = view.withInbox([timerFired(timerId, fireAt)], { timers }, this.clock.now());
        return { result: undefined, next, after: () => this.dispatch(next) };
      }),
    );
  }

  private resume(instanceId: string): Promise<void> {
    return this.locks.run(instanceId, async () => {
      const current = await this.load(instanceId);
      if (!current || isFinished(current.view.record)) return;
      const record = current.view.record;
      for (const [timerId, fireAt] of Object.entries(record.timers)) {
        this.armTimer(instanceId, record.executionId, Number(timerId), fireAt);
      }
      for (const [taskId, activity] of Object.entries(record.activities)) {
        this.deliver({
          kind: "activity",
          instanceId,
          executionId: record.executionId,
          taskId: Number(taskId),
          ...activity,
        });
      }
      this.dispatch(current.view);
    });
  }

  private flush(): void {
    if (!this.sink || !this.started) return;
    for (const item of this.undelivered.splice(0)) this.sink.deliver(item);
  }

  /**
   * Runs background work (no request waits on it: a timer firing, an activity's or a step's result,
   * a dispatch) again while it fails for a store outage, after `storeOutageWaitMs`, for as long as
   * the outage lasts: given up, it would be lost until the next start, and the instance stuck.
   * Each run plans afresh from the state it reads, as an ETag conflict does. Requests (create, raise,
   * terminate) fail at once instead, so that they answer 503. Shutdown ends the wait with the error.
   */
  private outlasting<T>(work: () => Promise<T>): Promise<T> {
    // The hot path adds one promise: the retries start only from a failure.
    return work().catch((error: unknown) => this.retryAfterOutage(error, work, 1));
  }

  private async retryAfterOutage<T>(error: unknown, work: () => Promise<T>, outage: number): Promise<T> {
    if (!isStoreUnavailable(error) || !(await this.outageWaits.wait(storeOutageWaitMs(outage)))) throw error;
    return work().catch((next: unknown) => this.retryAfterOutage(next, work, outage + 1));
  }

  /**
   * Runs `plan` against the instance's current state and commits what it returns, with the ETag it
   * read; on a conflict the state is re-read and the plan run again.
   */
  private async mutate<T>(
    instanceId: string,
    plan: (current: CachedInstance | undefined) => Plan<T> | Promise<Plan<T>>,
  ): Promise<T> {
    this.assertOpen();
    // Hot path: one call per state change, so it avoids promises and awaits it does not need.
    const turn = this.locks.acquire(instanceId);
    if (turn) await turn;
    try {
      for (let attempt = 1; ; attempt++) {
        const current = this.cache.get(instanceId) ?? (await this.load(instanceId));
        const planned = plan(current);
        const decided = planned instanceof Promise ? await planned : planned;
        const next = decided.next;
        if (!next) {
          decided.after?.();
          return decided.result;
        }
        const foreign = decided.foreign ?? [];
        try {
          await this.write(instanceId, current, next, foreign);
        } catch (error) {
          if (!(error instanceof EtagMismatchError) || attempt >= MAX_COMMIT_ATTEMPTS) throw error;
          this.cache.delete(instanceId);
          for (const write of foreign) this.cache.delete(write.record.instanceId);
          continue;
        }
        this.committed(next.record);
        for (const write of foreign) this.committed(write.record);
        decided.after?.();
        return decided.result;
      }
    } finally {
      this.locks.release(instanceId);
    }
  }

  private async write(
    instanceId: string,
    current: CachedInstance | undefined,
    next: InstanceView,
    foreign: ForeignWrite[],
  ): Promise<void> {
    const own = { record: next.record, etag: current?.etag, previous: current?.view.record.history };
    if (foreign.length === 0) {
      const newEtag = await this.instances.write(own);
      if (isFinished(next.record)) this.cache.delete(instanceId);
      else this.cache.set(instanceId, { view: next, etag: newEtag });
      return;
    }
    // A foreign record extends the history of the record it was made from, which it shares.
    await this.instances.writeTogether([
      own,
      ...foreign.map((write) => ({ ...write, previous: write.record.history })),
    ]);
    // A transaction returns no ETags: the next operation on these instances reads them back.
    this.cache.delete(instanceId);
    for (const write of foreign) this.cache.delete(write.record.instanceId);
  }

  private committed(record: StoredInstance): void {
    if (isFinished(record)) this.cancelTimers(record.instanceId);
    const watchers = this.watchers.get(record.instanceId);
    // A satisfied watcher removes itself; a Set tolerates that while it is iterated.
    if (watchers) for (const watcher of watchers) watcher.check(record);
  }

  /** The instance's state as this process last committed or read it; populated only under its lock. */
  private async load(instanceId: string): Promise<CachedInstance | undefined> {
    const cached = this.cache.get(instanceId);
    if (cached) return cached;
    const entry = await this.instances.read(instanceId);
    if (!entry) return undefined;
    const loaded = { view: new InstanceView(entry.record), etag: entry.etag };
    if (!isFinished(entry.record)) this.cache.set(instanceId, loaded);
    return loaded;
  }

  /** Reads without taking the lock, so it never fills the cache with a state a locked operation may be replacing. */
  private async peek(instanceId: string): Promise<{ record: StoredInstance; etag: string } | undefined> {
    const cached = this.cache.get(instanceId);
    if (cached) return { record: cached.view.record, etag: cached.etag };
    return this.instances.read(instanceId);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("Workflow backend is closed");
  }
}

interface CachedInstance {
  view: InstanceView;
  etag: string;
}

interface Plan<T> {
  result: T;
  next?: InstanceView;
  /** Other instances written in the same transaction (a child created, a parent told its child finished). */
  foreign?: ForeignWrite[];
  /** Runs once the plan is settled (committed, or nothing to commit), still under the instance lock. */
  after?: () => void;
}

interface Watcher {
  check(instance: StoredInstance): void;
  fail(error: Error): void;
}

/** The instance if it still runs `executionId`: work of an ended or replaced execution is dropped. */
function runningExecution(
  current: CachedInstance | undefined,
  executionId: string,
): InstanceView | undefined {
  const record = current?.view.record;
  return record && !isFinished(record) && record.executionId === executionId ? current.view : undefined;
}

function isScannable(store: StateStore): store is ScannableStateStore {
  return typeof (store as Partial<ScannableStateStore>).keys === "function";
}
