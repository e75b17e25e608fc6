import { randomUUID } from "node:crypto";
import type Router from "@koa/router";
import { retryDelay } from "../../../src/runtime/event-bus.js";
import { type AppChannel, daprError, parseJson, readBody } from "./app-channel.js";

/** A CloudEvent as the sidecar delivers it. */
export interface CloudEvent {
  specversion: string;
  id: string;
  source: string;
  type: string;
  datacontenttype: string;
  data?: unknown;
  topic: string;
  pubsubname: string;
  time: string;
}

export interface SubscriptionEntry {
  pubsubname: string;
  topic: string;
  route: string;
  deadLetterTopic?: string;
}

type Verdict = "SUCCESS" | "RETRY" | "DROP";

/** The pub/sub building block: the publish API, the app's subscriptions, delivery and dead letters. */
export class StandinPubsub {
  private readonly log: CloudEvent[] = [];
  subscriptions: SubscriptionEntry[] = [];
  private publishFailures = 0;

  constructor(private readonly channel: AppChannel) {}

  /** Reads the app's subscriptions as daprd does at start-up. */
  async readSubscriptions(): Promise<void> {
    const entries = (await (await this.channel.callApp("GET", "/dapr/subscribe")).json()) as Array<
      SubscriptionEntry & { routes?: { default?: string } }
    >;
    this.subscriptions = entries.map((entry) => ({
      ...entry,
      route: entry.route ?? entry.routes?.default ?? "",
    }));
  }

  /** Every publication the stand-in accepted (dead letters included), optionally for one topic. */
  published(topic?: string): CloudEvent[] {
    return this.log.filter((event) => topic === undefined || event.topic === topic);
  }

  /** The next `count` publish calls fail with 500, as when the broker is unreachable. */
  failNextPublishes(count: number): void {
    this.publishFailures = count;
  }

  routes(router: Router): void {
    router.post("/publish/:pubsub/:topic", async (ctx) => {
      const { pubsub, topic } = ctx.params as { pubsub: string; topic: string };
      const body = await readBody(ctx.req);
      if (this.publishFailures > 0) {
        this.publishFailures--;
        return daprError(ctx, 500, "ERR_PUBSUB_PUBLISH_MESSAGE", "injected broker failure");
      }
      const contentType = ctx.get("content-type") || "application/json";
      const event: CloudEvent = contentType.startsWith("application/cloudevents+json")
        ? { ...(parseJson(body) as CloudEvent), topic, pubsubname: pubsub }
        : {
            specversion: "1.0",
            id: randomUUID(),
            source: this.channel.appId,
            type: "com.dapr.event.sent",
            datacontenttype: contentType,
            data: parseJson(body),
            topic,
            pubsubname: pubsub,
            time: new Date(this.channel.clock.now()).toISOString(),
          };
      this.accept(event);
      ctx.status = 204;
    });
  }

  private accept(event: CloudEvent): void {
    this.log.push(event);
    for (const subscription of this.subscriptions) {
      if (subscription.pubsubname === event.pubsubname && subscription.topic === event.topic) {
        this.channel.track(this.deliver(subscription, event, 1));
      }
    }
  }

  private async deliver(subscription: SubscriptionEntry, event: CloudEvent, attempt: number): Promise<void> {
    const verdict = await this.verdict(subscription, event);
    if (verdict === "SUCCESS") return;
    if (verdict === "RETRY" && attempt < this.channel.retry.maxAttempts) {
      this.channel.after(retryDelay(this.channel.retry, attempt, this.channel.random), () =>
        this.channel.track(this.deliver(subscription, event, attempt + 1)),
      );
      return;
    }
    if (subscription.deadLetterTopic) this.accept({ ...event, topic: subscription.deadLetterTopic });
  }

  /** Dapr's reading of the app's answer: 2xx with a status (none means SUCCESS), 404 drops, the rest retries. */
  private async verdict(subscription: SubscriptionEntry, event: CloudEvent): Promise<Verdict> {
    let response: Response;
    try {
      response = await this.channel.callApp(
        "POST",
        subscription.route,
        JSON.stringify(event),
        "application/cloudevents+json",
      );
    } catch {
      return "RETRY";
    }
    const answer = parseJson(Buffer.from(await response.arrayBuffer())) as { status?: string } | undefined;
    if (response.status === 404) return "DROP";
    if (response.status < 200 || response.status > 299) return "RETRY";
    const status = typeof answer?.status === "string" ? answer.status.toUpperCase() : "SUCCESS";
    return status === "RETRY" || status === "DROP" ? status : "SUCCESS";
  }
}
