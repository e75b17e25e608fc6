import { connectAsync, type MqttClient } from "mqtt";
import type { BindingConsumer, InputBinding } from "../bindings.js";

export interface MqttTopicBindingOptions {
  /** mqtt://user:password@host:port (or mqtts://) */
  url: string;
  /** The topic the integrator publishes to (QoS 1). */
  topic: string;
  /**
   * The client id of the persistent session: the broker keeps the subscription and the messages
   * that were not acknowledged while the platform was away, and sends them on its return.
   */
  clientId: string;
}

/**
 * An input binding over an MQTT topic (mqtt.js, MQTT 5), for integrators whose systems speak MQTT
 * (Mosquitto, an IoT hub). QoS 1 on a persistent session: a message is acknowledged (PUBACK) only
 * once handled, so one the platform did not finish before it stopped comes again. A refusing PUBACK
 * would drop the message for good (MQTT asks for no redelivery), so a failed message is tried once
 * more at once and, failing again, given up (acknowledged and reported); unreadable bodies are
 * dropped and reported. mqtt.js hands
 * the messages of a session over one at a time, in order.
 */
export class MqttTopicBinding implements InputBinding {
  readonly description: string;
  private client: MqttClient | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: MqttTopicBindingOptions) {
    const url = new URL(options.url);
    this.description = `${url.protocol}//${url.host} topic ${options.topic}`;
  }

  async start(consumer: BindingConsumer): Promise<void> {
    this.client = await connectAsync(this.options.url, {
      clientId: this.options.clientId,
      // mqtt.js lets the application decide when to acknowledge only under MQTT 5.
      protocolVersion: 5,
      clean: false,
      // The session (subscription and unacknowledged messages) outlives a disconnection.
      properties: { sessionExpiryInterval: 7 * 24 * 3600 },
      reconnectPeriod: 1_000,
      customHandleAcks: (_topic, payload, _packet, acknowledge) => {
        const work = this.deliver(payload, consumer).then(() => acknowledge(0));
        this.inFlight.add(work);
        void work.finally(() => this.inFlight.delete(work));
      },
    });
    await this.client.subscribeAsync(this.options.topic, { qos: 1 });
  }

  private async deliver(payload: Buffer, consumer: BindingConsumer): Promise<void> {
    const raw = payload.toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (error) {
      consumer.onUnreadable(raw, error);
      return;
    }
    try {
      await consumer.handle(body);
    } catch {
      try {
        await consumer.handle(body);
      } catch (error) {
        consumer.onGivenUp(body, error);
      }
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await Promise.allSettled([...this.inFlight]);
    await client?.endAsync().catch(() => undefined);
  }
}
