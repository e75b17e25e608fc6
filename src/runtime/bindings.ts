/**
 * Bindings (ARCHITECTURE.md, the `Bindings` port): how an integrator's own broker reaches the
 * platform. An input binding is a queue or topic the integrator publishes to (disruption pushes,
 * flight states); the composition root picks the adapter (RabbitMQ in src/runtime/amqp, or Dapr's
 * input bindings delivered to the app's binding route under the distributed runtime).
 *
 * Delivery is at least once: the binding hands each message to `handle` and counts it done only
 * when `handle` resolves; a rejection asks for it again (a broker redelivers it). A message that
 * is not JSON never reaches `handle`: it is reported to `onUnreadable` and dropped, as a retry
 * could not make it readable.
 */
export interface InputBinding {
  /** For logs: the broker address without credentials, and the queue. */
  readonly description: string;
  start(consumer: BindingConsumer): Promise<void>;
  /** Stops taking messages and waits for those being handled. */
  close(): Promise<void>;
}

export interface BindingConsumer {
  handle(message: unknown): Promise<void>;
  onUnreadable(raw: string, error: unknown): void;
  /** A message given up after its second failure (logged by the caller, never lost silently). */
  onGivenUp(message: unknown, error: unknown): void;
}

/**
 * An output binding: an operation on an external system (an SMTP relay, an SMS provider) named by
 * a component, with its payload and per-call metadata (Dapr's `{operation, data, metadata}`).
 * Resolves with what the binding answered (often nothing); rejects when it refused or failed.
 */
export interface OutputBinding {
  readonly name: string;
  invoke(operation: string, data: unknown, metadata?: Record<string, string>): Promise<unknown>;
}
