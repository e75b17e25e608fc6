/**
 * The flight-state source (spec 6.3: "consumed as a continuous stream; results drive
 * disruption.detected"): where flight-state messages come from. The composition root picks the
 * adapter (`FLIGHT_STATE_SOURCE`): a RabbitMQ queue (src/runtime/amqp), a recorded file
 * (src/runtime/file), or none.
 *
 * Delivery is at least once: the source hands each message to `handle` and counts it done only when
 * `handle` resolves; a rejection asks for it again (a broker redelivers it). A message that is not
 * JSON never reaches `handle`: the source reports it to `onUnreadable` and drops it, as a retry
 * could not make it readable.
 */
export interface FlightStateSource {
  /** For logs: the broker address without credentials, or the file. */
  readonly description: string;
  start(consumer: FlightStateConsumer): Promise<void>;
  /** Stops taking messages and waits for those being handled. */
  close(): Promise<void>;
}

export interface FlightStateConsumer {
  handle(message: unknown): Promise<void>;
  onUnreadable(raw: string, error: unknown): void;
  /** A message given up after its second failure (logged by the caller, never lost silently). */
  onGivenUp(message: unknown, error: unknown): void;
}
