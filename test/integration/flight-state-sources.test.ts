import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AmqpQueueBinding } from "../../src/runtime/amqp/queue-binding.js";
import { FileFlightStateSource } from "../../src/runtime/file/flight-state-source.js";
import type { FlightStateConsumer } from "../../src/runtime/flight-state-source.js";
import { deferred } from "../support/deferred.js";
import { RABBITMQ_URL, deleteQueue, publishToQueue, rabbitmqForTests } from "../support/rabbitmq.js";

/** A consumer that records what the source hands it; `fail` says which messages throw. */
function recorder(fail: (message: unknown) => boolean = () => false) {
  const seen = { handled: [] as unknown[], unreadable: [] as string[], givenUp: [] as unknown[] };
  const consumer: FlightStateConsumer = {
    handle: async (message) => {
      seen.handled.push(message);
      if (fail(message)) throw new Error("handler failed");
    },
    onUnreadable: (raw) => seen.unreadable.push(raw),
    onGivenUp: (message) => seen.givenUp.push(message),
  };
  return { seen, consumer };
}

describe("the recorded file source", () => {
  it("hands over each line in order, skips comments, reports unreadable lines, and gives up a failing message after one retry", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "flight-states-")), "stream.jsonl");
    writeFileSync(
      path,
      ["# recorded", '{"n":1}', "", "not json", '{"n":2,"fail":true}', '{"n":3}'].join("\n"),
    );
    const { seen, consumer } = recorder((m) => (m as { fail?: boolean }).fail === true);
    const source = new FileFlightStateSource(path);
    await source.start(consumer);
    await source.drained();
    expect(seen.handled).toEqual([{ n: 1 }, { n: 2, fail: true }, { n: 2, fail: true }, { n: 3 }]);
    expect(seen.unreadable).toEqual(["not json"]);
    expect(seen.givenUp).toEqual([{ n: 2, fail: true }]);
    expect(source.description).toBe(`file ${path}`);
    await source.close();
  });
});

const broker = await rabbitmqForTests("RabbitMQ flight-state source");

describe.runIf(broker.reachable)("the RabbitMQ source", () => {
  const queue = `flight-states-source-test-${randomUUID()}`;
  afterAll(async () => {
    await deleteQueue(queue);
  });

  it("acknowledges handled messages, requeues a failed one once then gives it up, drops unreadable bodies, and names the broker without credentials", async () => {
    const done = deferred();
    const { seen, consumer } = recorder((m) => (m as { fail?: boolean }).fail === true);
    const counting: FlightStateConsumer = {
      ...consumer,
      handle: async (message) => {
        try {
          await consumer.handle(message);
        } finally {
          if ((message as { n: number }).n === 3) done.resolve();
        }
      },
    };
    const source = new AmqpQueueBinding({ url: RABBITMQ_URL, queue, prefetch: 4 });
    expect(source.description).not.toContain("guest:guest");
    await source.start(counting);
    await publishToQueue(queue, [{ n: 1 }, "{oops", { n: 2, fail: true }, { n: 3 }]);
    await done.promise;
    // The requeued copy of n=2 comes back after n=3; wait until it is given up.
    const deadline = Date.now() + 10_000;
    while (seen.givenUp.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await source.close();

    expect(seen.handled.filter((m) => (m as { n: number }).n !== 2)).toEqual([{ n: 1 }, { n: 3 }]);
    expect(seen.handled.filter((m) => (m as { n: number }).n === 2)).toHaveLength(2);
    expect(seen.unreadable).toEqual(["{oops"]);
    expect(seen.givenUp).toEqual([{ n: 2, fail: true }]);

    // Nothing was left on the queue: every message was acknowledged.
    const again = recorder();
    const second = new AmqpQueueBinding({ url: RABBITMQ_URL, queue });
    const marker = deferred();
    await second.start({
      ...again.consumer,
      handle: async (m) => {
        again.seen.handled.push(m);
        marker.resolve();
      },
    });
    await publishToQueue(queue, [{ n: "marker" }]);
    await marker.promise;
    await second.close();
    expect(again.seen.handled).toEqual([{ n: "marker" }]);
  });
});
