/**
 * How fast is the embedded runtime? Actor call latency (p50/p99) and throughput with many actors
 * and concurrent callers, and saga workflows per second for a three-activity workflow.
 * Targets (issue: foundation): p50 < 50 µs, >= 50,000 calls/s, >= 1,000 workflows/s.
 */
import "reflect-metadata";
import type { ActorContext } from "../src/runtime/actor-runtime.js";
import { systemClock } from "../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../src/runtime/embedded/event-bus.js";
import { EmbeddedWorkflowEngine } from "../src/runtime/embedded/workflow-engine.js";
import { MemoryStateStore } from "../src/runtime/memory/state-store.js";
import { WorkflowRegistry } from "../src/runtime/workflow-engine.js";
import { elapsedMicros, percentile, printTable, round } from "./stats.js";

class BenchCounterActor {
  constructor(private readonly context: ActorContext) {}
  async increment(): Promise<number> {
    const value = ((await this.context.state.get<number>("count")) ?? 0) + 1;
    this.context.state.set("count", value);
    return value;
  }
}

const ACTORS = 10_000;
const LATENCY_CALLS = 50_000;
const CALLERS = 64;
const THROUGHPUT_CALLS = 200_000;
const WORKFLOWS = 3_000;

async function actorFigures() {
  const bus = new EmbeddedEventBus({ clock: systemClock });
  const actors = new EmbeddedActorRuntime({ store: new MemoryStateStore(), bus, clock: systemClock });
  actors.register(BenchCounterActor);
  await actors.start();
  for (let i = 0; i < ACTORS; i++) await actors.invoke(BenchCounterActor, `a${i}`, "increment");

  const samples: number[] = new Array(LATENCY_CALLS);
  for (let i = 0; i < LATENCY_CALLS; i++) {
    const start = process.hrtime.bigint();
    await actors.invoke(BenchCounterActor, `a${i % ACTORS}`, "increment");
    samples[i] = elapsedMicros(start);
  }
  samples.sort((a, b) => a - b);

  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next < THROUGHPUT_CALLS) {
        const i = next++;
        await actors.invoke(BenchCounterActor, `a${(i * 7919) % ACTORS}`, "increment");
      }
    }),
  );
  const seconds = elapsedMicros(started) / 1e6;
  await actors.close();
  await bus.close();
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    opsPerSecond: THROUGHPUT_CALLS / seconds,
  };
}

async function reserveHotel(_: unknown, input: { group: number }) {
  return { reservation: `r-${input.group}` };
}
async function issueVoucher(_: unknown, input: { reservation: string }) {
  return { voucher: `v-${input.reservation}` };
}
async function notifyPassenger(_: unknown, input: { voucher: string }) {
  return { sent: input.voucher };
}
async function* bookingSaga(ctx: any, input: { group: number }): AsyncGenerator<unknown, string, any> {
  const reserved = yield ctx.callActivity(reserveHotel, input);
  const voucher = yield ctx.callActivity(issueVoucher, reserved);
  const sent = yield ctx.callActivity(notifyPassenger, voucher);
  return sent.sent;
}

async function workflowFigures() {
  const registry = new WorkflowRegistry()
    .addWorkflow(bookingSaga)
    .addActivity(reserveHotel)
    .addActivity(issueVoucher)
    .addActivity(notifyPassenger);
  const engine = new EmbeddedWorkflowEngine({ store: new MemoryStateStore(), clock: systemClock, registry });
  await engine.start();
  const started = process.hrtime.bigint();
  const ids = await Promise.all(
    Array.from({ length: WORKFLOWS }, (_, i) =>
      engine.schedule("bookingSaga", { group: i }, { instanceId: `wf-${i}` }),
    ),
  );
  const states = await Promise.all(ids.map((id) => engine.waitForCompletion(id, 120_000)));
  const seconds = elapsedMicros(started) / 1e6;
  await engine.close();
  const completed = states.filter((s) => s.runtimeStatus === "COMPLETED").length;
  if (completed !== WORKFLOWS) throw new Error(`only ${completed} of ${WORKFLOWS} workflows completed`);
  return { workflowsPerSecond: WORKFLOWS / seconds };
}

const actorsResult = await actorFigures();
const workflowResult = await workflowFigures();
printTable("Embedded actor runtime (memory state store)", [
  { figure: "actor call p50 (µs)", value: round(actorsResult.p50), target: "< 50" },
  { figure: "actor call p99 (µs)", value: round(actorsResult.p99), target: "" },
  {
    figure: `calls/s (${CALLERS} callers, ${ACTORS} actors)`,
    value: Math.round(actorsResult.opsPerSecond),
    target: ">= 50,000",
  },
  {
    figure: "3-activity workflows/s",
    value: Math.round(workflowResult.workflowsPerSecond),
    target: ">= 1,000",
  },
]);
console.log(
  JSON.stringify({
    bench: "actor-runtime",
    p50_us: round(actorsResult.p50),
    p99_us: round(actorsResult.p99),
    ops_per_s: Math.round(actorsResult.opsPerSecond),
    workflows_per_s: Math.round(workflowResult.workflowsPerSecond),
  }),
);
