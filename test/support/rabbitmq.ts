import { connect } from "amqplib";
import { brokerForTests } from "./broker-tests.js";

export const RABBITMQ_URL = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

/** Whether RabbitMQ-backed tests can run (brokerForTests). */
export function rabbitmqForTests(suite: string): Promise<{ reachable: boolean; reason?: string }> {
  return brokerForTests(suite, "RabbitMQ", RABBITMQ_URL, async () => {
    const connection = await connect(RABBITMQ_URL, { timeout: 1500 });
    await connection.close();
  });
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
