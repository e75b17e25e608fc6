import { connectAsync } from "mqtt";
import { brokerForTests } from "./broker-tests.js";

export const MOSQUITTO_URL = process.env.MOSQUITTO_URL ?? "mqtt://127.0.0.1:1883";

/** Whether MQTT-backed tests can run (brokerForTests). */
export function mosquittoForTests(suite: string): Promise<{ reachable: boolean; reason?: string }> {
  return brokerForTests(suite, "Mosquitto", MOSQUITTO_URL, async () => {
    const client = await connectAsync(MOSQUITTO_URL, { connectTimeout: 1500, reconnectPeriod: 0 });
    await client.endAsync();
  });
}

/** Publishes each message to `topic` with QoS 1 (acknowledged by the broker). */
export async function publishToTopic(topic: string, messages: readonly (object | string)[]): Promise<void> {
  const client = await connectAsync(MOSQUITTO_URL, { reconnectPeriod: 0 });
  try {
    for (const message of messages) {
      await client.publishAsync(topic, typeof message === "string" ? message : JSON.stringify(message), {
        qos: 1,
      });
    }
  } finally {
    await client.endAsync();
  }
}
