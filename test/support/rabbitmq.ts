import { connect } from "amqplib";
import { describe, it } from "vitest";

export const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

/**
 * Whether broker-backed tests can run. An unreachable RabbitMQ skips them with a printed reason,
 * except under REQUIRE_BROKERS=1 (CI), where a failing test stands in for them.
 */
export async function rabbitmqForTests(suite: string): Promise<{ reachable: boolean; reason?: string }> {
  try {
    const connection = await connect(RABBITMQ_URL, { timeout: 1500 });
    await connection.close();
    return { reachable: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.REQUIRE_BROKERS === "1") {
      describe(suite, () => {
        it("reaches RabbitMQ, which REQUIRE_BROKERS=1 demands", () => {
          throw new Error(`RabbitMQ at ${RABBITMQ_URL} is unreachable: ${reason}`);
        });
      });
    } else {
      console.warn(`${suite} tests skipped: RabbitMQ at ${RABBITMQ_URL} is unreachable (${reason})`);
    }
    return { reachable: false, reason };
  }
}

/** Sends each message to `queue` (declared durable, as the consumer declares it), persistent. */
export async function publishToQueue(queue: string, messages: readonly (object | string)[]): Promise<void> {
  const connection = await connect(RABBITMQ_URL);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertQueue(queue, { durable: true });
    for (const message of messages) {
      const body = typeof message === "string" ? message : JSON.stringify(message);
      channel.sendToQueue(queue, Buffer.from(body), { persistent: true, contentType: "application/json" });
    }
    await channel.waitForConfirms();
    await channel.close();
  } finally {
    await connection.close();
  }
}

export async function deleteQueue(queue: string): Promise<void> {
  const connection = await connect(RABBITMQ_URL);
  try {
    const channel = await connection.createChannel();
    await channel.deleteQueue(queue);
    await channel.close();
  } finally {
    await connection.close();
  }
}
