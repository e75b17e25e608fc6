import type { BindingConsumer, InputBinding } from "../bindings.js";

/** The app route daprd delivers an input binding to: each component names it in its `route` metadata. */
export const INPUT_BINDING_ROUTES = "/bindings";

/** What the app answers daprd for one delivery: 200 acknowledges it, anything else has it retried. */
export type BindingAnswer = 200 | 500 | 503;

/**
 * An input binding daprd delivers (RabbitMQ, MQTT or Kafka components in components/): the
 * sidecar reads the integrator's broker and posts each message's payload to
 * `/bindings/<name>`. The message is acknowledged on a 200 and redelivered by the component
 * otherwise; retrying is the component's (and the resiliency policy's) business, so no message is
 * given up here.
 */
class DaprInputBinding implements InputBinding {
  readonly description: string;
  private consumer: BindingConsumer | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(readonly name: string) {
    this.description = `dapr input binding ${INPUT_BINDING_ROUTES}/${name}`;
  }

  async start(consumer: BindingConsumer): Promise<void> {
    this.consumer = consumer;
  }

  get started(): boolean {
    return this.consumer !== undefined;
  }

  async deliver(raw: Buffer): Promise<BindingAnswer> {
    const consumer = this.consumer;
    // Before the modules start (or after they stop), the broker keeps the message for later.
    if (!consumer) return 503;
    const text = raw.toString("utf8");
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      consumer.onUnreadable(text, error);
      return 200;
    }
    const work = consumer.handle(message).then(
      (): BindingAnswer => 200,
      (): BindingAnswer => 500,
    );
    this.inFlight.add(work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  async close(): Promise<void> {
    this.consumer = undefined;
    await Promise.allSettled([...this.inFlight]);
  }
}

/** The input bindings this app serves under Dapr, by name (the sidecar routes read them). */
export class DaprInputBindings {
  private readonly bindings = new Map<string, DaprInputBinding>();

  binding(name: string): InputBinding {
    let binding = this.bindings.get(name);
    if (!binding) {
      binding = new DaprInputBinding(name);
      this.bindings.set(name, binding);
    }
    return binding;
  }

  /** Whether the app takes deliveries for `name` (daprd's OPTIONS probe at start-up). */
  serves(name: string): boolean {
    return this.bindings.has(name);
  }

  deliver(name: string, raw: Buffer): Promise<BindingAnswer> | undefined {
    return this.bindings.get(name)?.deliver(raw);
  }
}
