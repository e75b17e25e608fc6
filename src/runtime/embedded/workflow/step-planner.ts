import type { WorkflowRuntimeStatus } from "../../workflow-engine.js";
import { failureDetails, type HistoryEvent, type OrchestratorResult, pb } from "./durable-task.js";
import {
  encodeEvent,
  executionStarted,
  subOrchestrationCompleted,
  subOrchestrationCreated,
  subOrchestrationFailed,
  taskScheduled,
  timerCreated,
  toFailureDetails,
  toStoredFailure,
} from "./history-events.js";
import { InstanceView } from "./instance-view.js";
import type { ParentLink, StoredInstance } from "./stored-instance.js";
import type { ActivityWorkItem, CommittedStep, OrchestrationWorkItem, WorkItem } from "./work-items.js";
import { randomUuid } from "../../../domain/uuid.js";

/** Another instance written in the same transaction as the step (a child created, a parent told its child ended). */
export interface ForeignWrite {
  record: StoredInstance;
  /** Absent when the write creates the instance. */
  etag?: string;
}

export interface StepPlan {
  result: CommittedStep;
  next: InstanceView;
  foreign: ForeignWrite[];
  /** The step's effects; run once committed. */
  after: () => void;
}

/** What planning a step needs from the backend: reads of other instances, and the effects it schedules. */
export interface StepEnvironment {
  exists(instanceId: string): Promise<boolean>;
  /** The parent's record with `notice` for the child's task appended, if the parent still waits for it. */
  parentNotice(
    child: StoredInstance,
    notice: (taskId: number) => HistoryEvent,
  ): Promise<ForeignWrite | undefined>;
  deliver(item: WorkItem): void;
  armTimer(instanceId: string, executionId: string, timerId: number, fireAt: number): void;
  cancelTimers(instanceId: string): void;
  sendEvent(instanceId: string, name: string, input: string | undefined): void;
  /** Dispatches the instance that was just committed. */
  dispatch(view: InstanceView): void;
  /** Dispatches another instance, under its own lock. */
  requestDispatch(instanceId: string): void;
}

/**
 * Turns one orchestrator step into the instance's next stored state: each action becomes the
 * history event that confirms it plus the work it starts (an activity to run, a timer to arm, a
 * child to create), and a completion ends the instance, restarts it (continue-as-new) or tells its
 * parent. Nothing happens until the backend commits; the effects run after.
 */
export class StepPlanner {
  private readonly record: StoredInstance;
  private readonly activities: StoredInstance["activities"];
  private readonly timers: StoredInstance["timers"];
  private readonly children: StoredInstance["children"];
  private readonly confirmations: HistoryEvent[] = [];
  private readonly selfNotices: HistoryEvent[] = [];
  private readonly foreign: ForeignWrite[] = [];
  private readonly effects: Array<() => void> = [];

  constructor(
    private readonly environment: StepEnvironment,
    private readonly view: InstanceView,
    private readonly item: OrchestrationWorkItem,
    private readonly now: number,
  ) {
    this.record = view.record;
    this.activities = { ...this.record.activities };
    for (const result of item.unsaved) delete this.activities[result.taskId];
    this.timers = { ...this.record.timers };
    this.children = { ...this.record.children };
  }

  async plan(result: OrchestratorResult): Promise<StepPlan> {
    let completion: pb.CompleteOrchestrationAction | undefined;
    for (const action of result.actions) {
      const id = action.getId();
      switch (action.getOrchestratoractiontypeCase()) {
        case pb.OrchestratorAction.OrchestratoractiontypeCase.SCHEDULETASK:
          this.scheduleTask(id, action.getScheduletask()!);
          break;
        case pb.OrchestratorAction.OrchestratoractiontypeCase.CREATETIMER:
          this.createTimer(id, action.getCreatetimer()!);
          break;
        case pb.OrchestratorAction.OrchestratoractiontypeCase.CREATESUBORCHESTRATION:
          await this.createChild(id, action.getCreatesuborchestration()!);
          break;
        case pb.OrchestratorAction.OrchestratoractiontypeCase.SENDEVENT:
          this.sendEvent(action.getSendevent()!);
          break;
        case pb.OrchestratorAction.OrchestratoractiontypeCase.COMPLETEORCHESTRATION:
          completion = action.getCompleteorchestration();
          break;
      }
    }
    const next = completion
      ? await this.complete(completion, result.customStatus)
      : this.proceed(result.customStatus);
    return {
      result: { turn: next.record.turn, confirmations: this.confirmations },
      next,
      foreign: this.foreign,
      after: () => {
        for (const effect of this.effects) effect();
        this.environment.dispatch(next);
      },
    };
  }

  private scheduleTask(taskId: number, task: pb.ScheduleTaskAction): void {
    const name = task.getName();
    const input = task.getInput()?.getValue();
    this.confirmations.push(taskScheduled(taskId, name, input));
    this.activities[taskId] = input === undefined ? { name } : { name, input };
    const item: ActivityWorkItem = {
      kind: "activity",
      instanceId: this.record.instanceId,
      executionId: this.record.executionId,
      taskId,
      name,
      ...(input === undefined ? {} : { input }),
    };
    this.effects.push(() => this.environment.deliver(item));
  }

  private createTimer(timerId: number, timer: pb.CreateTimerAction): void {
    const fireAt = timer.getFireat()?.toDate().getTime() ?? this.now;
    this.confirmations.push(timerCreated(timerId, fireAt));
    this.timers[timerId] = fireAt;
    const { instanceId, executionId } = this.record;
    this.effects.push(() => this.environment.armTimer(instanceId, executionId, timerId, fireAt));
  }

  private async createChild(taskId: number, child: pb.CreateSubOrchestrationAction): Promise<void> {
    const name = child.getName();
    const input = child.getInput()?.getValue();
    const instanceId =
      child.getInstanceid() || `${this.record.instanceId}:${taskId.toString(16).padStart(4, "0")}`;
    this.confirmations.push(subOrchestrationCreated(taskId, name, instanceId, input));
    if (await this.environment.exists(instanceId)) {
      const error = new Error(`Cannot start child workflow: instance ${instanceId} already exists`);
      this.selfNotices.push(subOrchestrationFailed(taskId, failureDetails(error)));
      return;
    }
    this.children[taskId] = instanceId;
    const parent: ParentLink = { instanceId: this.record.instanceId, taskId };
    const { record } = InstanceView.create({ name, instanceId, input }, this.now, parent);
    this.foreign.push({ record });
    this.effects.push(() => this.environment.requestDispatch(instanceId));
  }

  private sendEvent(send: pb.SendEventAction): void {
    const target = send.getInstance()?.getInstanceid();
    if (!target) return;
    const name = send.getName();
    const data = send.getData()?.getValue();
    this.effects.push(() => this.environment.sendEvent(target, name, data));
  }

  /** This step's new events, as stored: its OrchestratorStarted, the inbox it consumed, the results it carried. */
  private stepEvents(): string[] {
    const { record, item } = this;
    return [
      encodeEvent(item.newEvents[0]!),
      ...record.inbox.slice(0, item.consumed),
      ...item.unsaved.map((result) => encodeEvent(result.event)),
    ];
  }

  /** The instance keeps running: this step's events move from the inbox into the history. */
  private proceed(customStatus: string): InstanceView {
    const { record, item, view } = this;
    const history = [...record.history, ...this.stepEvents(), ...this.confirmations.map(encodeEvent)];
    const inbox = [...record.inbox.slice(item.consumed), ...this.selfNotices.map(encodeEvent)];
    const next: StoredInstance = {
      ...withCustomStatus(record, customStatus),
      status: "RUNNING",
      lastUpdatedAt: this.now,
      turn: record.turn + 1,
      history,
      inbox,
      activities: this.activities,
      timers: this.timers,
      children: this.children,
    };
    const knownHistory = view.knownHistory();
    const knownInbox = view.knownInbox();
    return new InstanceView(
      next,
      knownHistory && [...knownHistory, ...item.newEvents, ...this.confirmations],
      knownInbox && [...knownInbox.slice(item.consumed), ...this.selfNotices],
    );
  }

  private async complete(
    action: pb.CompleteOrchestrationAction,
    customStatus: string,
  ): Promise<InstanceView> {
    const status = action.getOrchestrationstatus();
    if (status === pb.OrchestrationStatus.ORCHESTRATION_STATUS_CONTINUED_AS_NEW) {
      return this.continueAsNew(action, customStatus);
    }
    const { record, item } = this;
    const output = action.getResult()?.getValue();
    const finalStatus = finalStatusOf(status);
    const failure = finalStatus === "FAILED" ? toStoredFailure(action.getFailuredetails()) : undefined;
    const next: StoredInstance = {
      ...withCustomStatus(record, customStatus),
      status: finalStatus,
      ...(output === undefined ? {} : { output }),
      ...(failure ? { failure } : {}),
      lastUpdatedAt: this.now,
      turn: record.turn + 1,
      history: [...record.history, ...this.stepEvents(), ...this.confirmations.map(encodeEvent)],
      inbox: record.inbox.slice(item.consumed),
      activities: {},
      timers: {},
      children: {},
    };
    const parentWrite = await this.environment.parentNotice(record, (taskId) =>
      finalStatus === "COMPLETED"
        ? subOrchestrationCompleted(taskId, output)
        : subOrchestrationFailed(
            taskId,
            failure
              ? toFailureDetails(failure)
              : failureDetails(new Error(`Child workflow ${record.instanceId} ended ${finalStatus}`)),
          ),
    );
    if (parentWrite) {
      this.foreign.push(parentWrite);
      this.effects.push(() => this.environment.requestDispatch(parentWrite.record.instanceId));
    }
    return new InstanceView(next);
  }

  /** A new execution of the same instance: fresh history, the new input, and the carried-over events. */
  private continueAsNew(action: pb.CompleteOrchestrationAction, customStatus: string): InstanceView {
    const { record, item } = this;
    const input = action.getResult()?.getValue();
    const started = executionStarted(record.name, record.instanceId, input);
    const carryover = action.getCarryovereventsList();
    const next: StoredInstance = {
      ...withCustomStatus(record, customStatus),
      executionId: randomUuid(),
      status: "RUNNING",
      lastUpdatedAt: this.now,
      turn: record.turn + 1,
      history: [],
      inbox: [encodeEvent(started), ...carryover.map(encodeEvent), ...record.inbox.slice(item.consumed)],
      activities: {},
      timers: {},
      children: {},
    };
    delete next.output;
    delete next.failure;
    if (input === undefined) delete next.input;
    else next.input = input;
    this.effects.unshift(() => this.environment.cancelTimers(record.instanceId));
    return new InstanceView(next);
  }
}

function withCustomStatus(record: StoredInstance, customStatus: string): StoredInstance {
  if (customStatus) return { ...record, customStatus };
  const { customStatus: _previous, ...rest } = record;
  return rest;
}

function finalStatusOf(status: pb.OrchestrationStatus): WorkflowRuntimeStatus {
  switch (status) {
    case pb.OrchestrationStatus.ORCHESTRATION_STATUS_COMPLETED:
      return "COMPLETED";
    case pb.OrchestrationStatus.ORCHESTRATION_STATUS_TERMINATED:
      return "TERMINATED";
    default:
      return "FAILED";
  }
}
