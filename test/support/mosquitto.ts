import { connectAsync } from "mqtt";
import { describe, it } from "vitest";

export const MOSQUITTO_URL = process.env.MOSQUITTO_URL ?? "mqtt://127.0.0.1:1883";

/**
 * Whether MQTT-backed tests can run. An unreachable Mosquitto skips them with a printed reason,
 * except under REQUIRE_BROKERS=1 (CI), where a failing test stands in for them.
 */
export async function mosquittoForTests(suite: string): Promise<{ reachable: boolean }> {
  try {
    const client = await connectAsync(MOSQUITTO_URL, { connectTimeout: 1500, reconnectPeriod: 0 });
    await client.endAsync();
    return { reachable: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.REQUIRE_BROKERS === "1") {
      describe(suite, () => {
        it("reaches Mosquitto, which REQUIRE_BROKERS=1 demands", () => {
          throw new Error(`Mosquitto at ${MOSQUITTO_URL} is unreachable: ${reason}`);
        });
      });
    } else {
      console.warn(`${suite} tests skipped: Mosquitto at ${MOSQUITTO_URL} is unreachable (${reason})`);
    }
    return { reachable: false };
  }
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
