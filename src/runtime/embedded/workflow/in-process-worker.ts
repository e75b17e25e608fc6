import type { WorkflowRegistry } from "../../workflow-engine.js";
import type { WorkflowBackend } from "./backend.js";
import {
  executeActivity,
  failedResult,
  type HistoryEvent,
  OrchestrationSession,
  type OrchestratorResult,
  type SdkRegistry,
  toSdkRegistry,
} from "./durable-task.js";
import type { ActivityWorkItem, OrchestrationWorkItem, WorkItem, WorkItemSink } from "./work-items.js";

/**
 * Orchestrator steps are CPU work (workflow code between two yields). Running thousands at once
 * only interleaves them and keeps all their garbage alive together, which cost a third of the
 * throughput when measured; the SDK's own worker caps work items the same way. Activities may wait
 * on I/O, so they are not capped.
 */
const MAX_CONCURRENT_STEPS = 16;

/**
 * Work items start one per turn of the event loop (setImmediate), never straight from the commit
 * that produced them. Over the in-memory store an activity, its commit and the next step resolve
 * as one chain of promises: started inline, a burst of runs kept the loop in its microtasks for
 * seconds, and a request that came in meanwhile (an operator's compensation, whose 202 spec 4.1
 * wants in 50 ms) waited behind all of it. Started from the loop, each item lets the sockets that
 * are ready be served first.
 */
const startSoon: (start: () => void) => void = (start) => setImmediate(start);

/** Running workflows kept in memory; beyond this the least recently stepped one is replayed from history when it next steps. */
const MAX_SESSIONS = 10_000;

interface KeptSession {
  session: OrchestrationSession;
  executionId: string;
  /** The instance turn the session's next step must start from. */
  turn: number;
}

/**
 * Runs the backend's work items in this process with the SDK's own executors. The backend hands
 * out one orchestrator step per instance at a time, so steps of one instance never overlap while
 * different instances (and the activities of one fan-out) run concurrently. Between steps each
 * workflow stays in memory as an OrchestrationSession; any doubt (another turn, another execution,
 * an evicted session) falls back to a full replay of the history the backend provides.
 */
export class InProcessWorkflowWorker implements WorkItemSink {
  private readonly registry: SdkRegistry;
  private readonly running = new Set<Promise<void>>();
  private readonly waitingSteps: OrchestrationWorkItem[] = [];
  private readonly waitingActivities: ActivityWorkItem[] = [];
  /** Whether a turn of the loop is booked to start the next waiting item. */
  private startBooked = false;
  /** Settles once the step that produced the session is committed; undefined if it cannot be reused. */
  private readonly sessions = new Map<string, Promise<KeptSession | undefined>>();
  private stepsRunning = 0;
  private closed = false;

  constructor(
    private readonly backend: WorkflowBackend,
    registry: WorkflowRegistry,
    private readonly onError: (error: unknown) => void,
  ) {
    this.registry = toSdkRegistry(registry);
  }

  deliver(item: WorkItem): void {
    if (this.closed) return;
    if (item.kind === "activity") this.waitingActivities.push(item);
    else this.waitingSteps.push(item);
    this.bookStart();
  }

  /**
   * Stops taking work, gives back the steps not started (so the results they carry get stored)
   * and waits for what is running. Detach it from the backend first, or new work keeps coming.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const item of this.waitingSteps.splice(0)) this.backend.abandon(item);
    for (const item of this.waitingActivities.splice(0)) this.backend.abandon(item);
    this.sessions.clear();
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Books a turn of the loop for the next item that may start, unless one is booked or none may. */
  private bookStart(): void {
    if (this.startBooked || this.closed || !this.mayStart()) return;
    this.startBooked = true;
    startSoon(() => {
      this.startBooked = false;
      this.startNext();
      this.bookStart();
    });
  }

  private mayStart(): boolean {
    return (
      this.waitingActivities.length > 0 ||
      (this.waitingSteps.length > 0 && this.stepsRunning < MAX_CONCURRENT_STEPS)
    );
  }

  /** Steps first (each one finishes a run's turn and frees what it held), else the oldest activity. */
  private startNext(): void {
    if (this.closed) return;
    const step = this.stepsRunning < MAX_CONCURRENT_STEPS ? this.waitingSteps.shift() : undefined;
    if (step) {
      this.stepsRunning++;
      this.track(
        this.orchestrate(step).finally(() => {
          this.stepsRunning--;
          this.bookStart();
        }),
      );
      return;
    }
    const activity = this.waitingActivities.shift();
    if (activity) this.track(this.runActivity(activity));
  }

  private track(work: Promise<void>): void {
    const run = work.catch(this.onError).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async orchestrate(item: OrchestrationWorkItem): Promise<void> {
    const kept = await this.sessions.get(item.instanceId);
    const reusable = kept?.executionId === item.executionId && kept.turn === item.turn;
    const session = reusable ? kept.session : new OrchestrationSession(this.registry, item.instanceId);
    const result = await this.step(session, reusable ? [] : item.pastEvents(), item.newEvents);

    // The backend hands out the next step from inside this commit, so the session is published
    // first, as a promise the next step waits on.
    let publish!: (kept: KeptSession | undefined) => void;
    const next = new Promise<KeptSession | undefined>((resolve) => {
      publish = resolve;
    });
    this.keep(item.instanceId, next);
    let reuse: KeptSession | undefined;
    try {
      const committed = await this.backend.completeOrchestration(item, result);
      if (committed && (await session.confirm(committed.confirmations))) {
        reuse = { session, executionId: item.executionId, turn: committed.turn };
      }
    } finally {
      publish(reuse);
      if (!reuse && this.sessions.get(item.instanceId) === next) this.sessions.delete(item.instanceId);
    }
  }

  private async step(
    session: OrchestrationSession,
    pastEvents: HistoryEvent[],
    newEvents: HistoryEvent[],
  ): Promise<OrchestratorResult> {
    try {
      return await session.run(pastEvents, newEvents);
    } catch (error) {
      return failedResult(error);
    }
  }

  private keep(instanceId: string, session: Promise<KeptSession | undefined>): void {
    this.sessions.delete(instanceId);
    this.sessions.set(instanceId, session);
    if (this.sessions.size > MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
  }

  private async runActivity(item: ActivityWorkItem): Promise<void> {
    const outcome = await executeActivity(this.registry, item.instanceId, item.name, item.taskId, item.input);
    await this.backend.completeActivity(item, outcome);
  }
}
