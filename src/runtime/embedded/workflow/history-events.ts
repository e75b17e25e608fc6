import { BinaryWriter, type HistoryEvent, pb, ph, type TaskFailureDetails } from "./durable-task.js";

/**
 * google-protobuf writes a string field one byte at a time into a plain array that grows by copying:
 * the JSON payloads of a saga's activities made that the largest allocation on a saga's path
 * (about a tenth of its bytes, measured with the sampling heap profiler), and so a share of the
 * young-generation collections that pause the event loop. A string is the same length-delimited
 * field as bytes on the wire, so it goes in as the UTF-8 bytes Buffer makes in one call.
 */
class HistoryEventWriter extends BinaryWriter {
  override writeString(field: number, value?: string): void {
    if (value != null) this.writeBytes(field, Buffer.from(value, "utf8"));
  }
}

/**
 * The history events the backend writes, in the protobuf form the SDK executor replays, and their
 * stored form: each event is serialized once, when it is created, and kept as base64 from then on.
 */
export function encodeEvent(event: HistoryEvent): string {
  const writer = new HistoryEventWriter();
  pb.HistoryEvent.serializeBinaryToWriter(event, writer);
  const bytes = writer.getResultBuffer();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

export function decodeEvent(encoded: string): HistoryEvent {
  return pb.HistoryEvent.deserializeBinary(Buffer.from(encoded, "base64"));
}

export function orchestratorStarted(at: number): HistoryEvent {
  return ph.newOrchestratorStartedEvent(new Date(at));
}

export function executionStarted(name: string, instanceId: string, input: string | undefined): HistoryEvent {
  return ph.newExecutionStartedEvent(name, instanceId, input);
}

export function executionTerminated(output: string | undefined): HistoryEvent {
  return ph.newTerminatedEvent(output);
}

export function taskScheduled(taskId: number, name: string, input: string | undefined): HistoryEvent {
  return ph.newTaskScheduledEvent(taskId, name, input);
}

export function taskCompleted(taskId: number, result: string | undefined): HistoryEvent {
  return ph.newTaskCompletedEvent(taskId, result);
}

export function taskFailed(taskId: number, failure: TaskFailureDetails): HistoryEvent {
  const event = untimedEvent();
  event.setTaskfailed(failedTask(new pb.TaskFailedEvent(), taskId, failure));
  return event;
}

export function timerCreated(timerId: number, fireAt: number): HistoryEvent {
  return ph.newTimerCreatedEvent(timerId, new Date(fireAt));
}

export function timerFired(timerId: number, fireAt: number): HistoryEvent {
  return ph.newTimerFiredEvent(timerId, new Date(fireAt));
}

export function subOrchestrationCreated(
  taskId: number,
  name: string,
  instanceId: string,
  input: string | undefined,
): HistoryEvent {
  return ph.newSubOrchestrationCreatedEvent(taskId, name, instanceId, input);
}

export function subOrchestrationCompleted(taskId: number, result: string | undefined): HistoryEvent {
  return ph.newSubOrchestrationCompletedEvent(taskId, result);
}

export function subOrchestrationFailed(taskId: number, failure: TaskFailureDetails): HistoryEvent {
  const event = untimedEvent();
  event.setSuborchestrationinstancefailed(
    failedTask(new pb.SubOrchestrationInstanceFailedEvent(), taskId, failure),
  );
  return event;
}

export function eventRaised(name: string, input: string | undefined): HistoryEvent {
  return ph.newEventRaisedEvent(name, input);
}

export interface StoredFailure {
  message: string;
  errorType: string;
  stackTrace?: string;
}

export function toStoredFailure(details: TaskFailureDetails | undefined): StoredFailure {
  const stackTrace = details?.getStacktrace()?.getValue();
  return {
    message: details?.getErrormessage() ?? "",
    errorType: details?.getErrortype() ?? "Error",
    ...(stackTrace ? { stackTrace } : {}),
  };
}

export function toFailureDetails(failure: StoredFailure): TaskFailureDetails {
  const details = new pb.TaskFailureDetails();
  details.setErrormessage(failure.message);
  details.setErrortype(failure.errorType);
  if (failure.stackTrace) details.setStacktrace(ph.getStringValue(failure.stackTrace));
  return details;
}

/** An activity's or a sub-orchestration's failure: which scheduled task failed, and how. */
function failedTask<F extends pb.TaskFailedEvent | pb.SubOrchestrationInstanceFailedEvent>(
  failed: F,
  taskId: number,
  failure: TaskFailureDetails,
): F {
  failed.setTaskscheduledid(taskId);
  failed.setFailuredetails(failure);
  return failed;
}

function untimedEvent(): HistoryEvent {
  const event = new pb.HistoryEvent();
  event.setEventid(-1);
  event.setTimestamp(ph.newTimestamp(new Date(0)));
  return event;
}
