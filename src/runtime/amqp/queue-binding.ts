import {
  type Channel,
  type ChannelModel,
  type ConsumeMessage,
  type RecoveringChannelModel,
  connect,
} from "amqplib";
import type { BindingConsumer, InputBinding } from "../bindings.js";

export interface AmqpQueueBindingOptions {
  /** amqp://user:password@host:port/vhost */
  url: string;
  /** A durable queue, declared if missing; publishers send to it (or bind an exchange to it). */
  queue: string;
  /** Messages handled at once; the broker holds the rest until one is acknowledged. */
  prefetch?: number;
}

/**
 * An input binding over a RabbitMQ queue (amqplib): flight states, disruption pushes. A message is acknowledged once handled; a failed
 * one is requeued once, and given up (acknowledged and reported) when its redelivery fails too,
 * so one poison message cannot spin the consumer. Unreadable bodies are dropped and reported.
 *
 * The connection recovers by itself (amqplib's `recovery`: exponential backoff with jitter) and
 * consumes again on each new connection; messages unacknowledged when it dropped are redelivered by
 * the broker. Start-up fails after a few attempts, so a wrong address is seen at once.
 */
export class AmqpQueueBinding implements InputBinding {
  readonly description: string;
  private connection: RecoveringChannelModel | undefined;
  private channel: Channel | undefined;
  private consumerTag: string | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly options: AmqpQueueBindingOptions) {
    const url = new URL(options.url);
    this.description = `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname} queue ${options.queue}`;
  }

  async start(consumer: BindingConsumer): Promise<void> {
    this.connection = await connect(this.options.url, {
      recovery: {
        initialMaxRetries: 3,
        maxDelay: 10_000,
        setup: (model: ChannelModel) => this.consume(model, consumer),
      },
    });
  }

  private async consume(model: ChannelModel, consumer: BindingConsumer): Promise<void> {
    const channel = await model.createChannel();
    this.channel = channel;
    await channel.assertQueue(this.options.queue, { durable: true });
    await channel.prefetch(this.options.prefetch ?? 16);
    const { consumerTag } = await channel.consume(this.options.queue, (message) => {
      if (!message) return;
      // One message at a time, in the order the broker gives them: a flight's later state is
      // weighed after its earlier one, and a redelivered copy after the first is recorded.
      const work = this.last.then(() => this.deliver(channel, message, consumer));
      this.last = work;
      this.inFlight.add(work);
      void work.finally(() => this.inFlight.delete(work));
    });
    this.consumerTag = consumerTag;
  }

  private async deliver(channel: Channel, message: ConsumeMessage, consumer: BindingConsumer): Promise<void> {
    const raw = message.content.toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (error) {
      consumer.onUnreadable(raw, error);
      channel.ack(message);
      return;
    }
    try {
      await consumer.handle(body);
      channel.ack(message);
    } catch (error) {
      if (message.fields.redelivered) {
        consumer.onGivenUp(body, error);
        channel.ack(message);
      } else {
        channel.nack(message, false, true);
      }
    }
  }

  async close(): Promise<void> {
    const channel = this.channel;
    this.channel = undefined;
    if (channel && this.consumerTag) await channel.cancel(this.consumerTag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await channel?.close().catch(() => undefined);
    await this.connection?.close().catch(() => undefined);
    this.connection = undefined;
  }
}
