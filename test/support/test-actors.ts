import { DomainError } from "../../src/domain/domain-error.js";
import type { ActorContext } from "../../src/runtime/actor-runtime.js";

export const TEST_TENANT = "urn:airline:ZX";

/** A small actor exercising every runtime capability the contract suite checks. */
export class CounterActor {
  constructor(private readonly context: ActorContext<Record<string, unknown>>) {}

  async increment(input: { by?: number; emit?: boolean } = {}): Promise<number> {
    const value = ((await this.context.state.get<number>("count")) ?? 0) + (input.by ?? 1);
    this.context.state.set("count", value);
    if (input.emit) {
      this.context.emit({
        type: "counter.incremented",
        tenant: TEST_TENANT,
        correlationUrn: "urn:trace:test",
        data: { actorId: this.context.actorId, value },
      });
    }
    return value;
  }

  async get(): Promise<number> {
    return (await this.context.state.get<number>("count")) ?? 0;
  }

  /** Stages a change and an event, then refuses: neither may survive. */
  async incrementThenRefuse(): Promise<never> {
    const value = ((await this.context.state.get<number>("count")) ?? 0) + 1;
    this.context.state.set("count", value);
    this.context.emit({
      type: "counter.incremented",
      tenant: TEST_TENANT,
      correlationUrn: "urn:trace:test",
      data: {},
    });
    throw new DomainError("conflict", "counter-refused", "refused on purpose", { value });
  }

  async mutateReadThenFail(): Promise<never> {
    const log = (await this.context.state.get<string[]>("log")) ?? [];
    log.push("should-not-stay");
    throw new Error("plain failure");
  }

  async appendLog(entry: string): Promise<string[]> {
    const log = (await this.context.state.get<string[]>("log")) ?? [];
    log.push(entry);
    this.context.state.set("log", log);
    return log;
  }

  async getLog(): Promise<string[]> {
    return (await this.context.state.get<string[]>("log")) ?? [];
  }

  /** The log as a peek answers it: the committed value itself, which the turn only looks at. */
  async peekLog(): Promise<string[]> {
    return (await this.context.state.peek<string[]>("log")) ?? [];
  }

  async remind(input: { name: string; dueInMs: number; periodMs?: number }): Promise<void> {
    await this.context.reminders.set(input.name, {
      dueInMs: input.dueInMs,
      ...(input.periodMs ? { periodMs: input.periodMs } : {}),
      data: { note: input.name },
    });
  }

  async forget(name: string): Promise<void> {
    await this.context.reminders.cancel(name);
  }

  async receiveReminder(name: string, data: unknown): Promise<void> {
    const fired = (await this.context.state.get<Array<{ name: string; data: unknown }>>("fired")) ?? [];
    fired.push({ name, data });
    this.context.state.set("fired", fired);
  }

  async fired(): Promise<Array<{ name: string; data: unknown }>> {
    return (await this.context.state.get<Array<{ name: string; data: unknown }>>("fired")) ?? [];
  }
}
