import { randomUUID } from "node:crypto";
import type Router from "@koa/router";
import { type AppChannel, daprError, parseJson, readBody } from "./app-channel.js";
import { Backoff, type ResiliencyDocument, inboundPubsubRetry } from "./resiliency.js";

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

/** How daprd 1.16 reads one delivery's answer. */
type Outcome = "delivered" | "dropped" | "failed";

/** pubsub.redis claims a message left unacknowledged again after its `redeliverInterval` (60 s). */
const REDELIVER_INTERVAL_MS = 60_000;

/**
 * The broker behind the stand-ins' pub/sub components, as one Redis holds the streams of every
 * pubsub.redis component on it: every publication, whichever component published it, reaches each
 * consumer group reading its topic once, handed to one of the group's sidecars in turn. A group is
 * named by the reading component's expanded `consumerID` (`{appID}`: one per app id; with `{uuid}`:
 * one per sidecar). Stand-ins given the same broker are apps of one distributed run.
 */
export class StandinBroker {
  readonly log: CloudEvent[] = [];
  private readonly groups = new Map<string, Array<{ member: StandinPubsub; component: string }>>();
  private readonly turns = new Map<string, number>();

  join(group: string, member: StandinPubsub, component: string): void {
    const members = this.groups.get(group) ?? [];
    if (!members.some((m) => m.member === member && m.component === component)) {
      this.groups.set(group, [...members, { member, component }]);
    }
  }

  leave(member: StandinPubsub): void {
    for (const [group, members] of this.groups) {
      this.groups.set(
        group,
        members.filter((m) => m.member !== member),
      );
    }
  }

  publish(event: CloudEvent): void {
    this.log.push(event);
    for (const [group, members] of this.groups) {
      const takers = members.filter((m) => m.member.subscribes(m.component, event.topic));
      if (takers.length === 0) continue;
      const turn = this.turns.get(group) ?? 0;
      this.turns.set(group, turn + 1);
      const taker = takers[turn % takers.length]!;
      taker.member.receive({ ...event, pubsubname: taker.component });
    }
  }
}

/**
 * The pub/sub building block, as daprd 1.16 runs it: the publish API, the app's subscriptions
 * (read from `/dapr/subscribe`), and delivery under the inbound resiliency policy of the component.
 * A delivery that fails (RETRY, an unknown status, a non-2xx answer other than 404, no answer) is
 * tried again as that policy says; once it gives up, or at once without a policy, the event goes to
 * the subscription's dead-letter topic and is acknowledged. Without a dead-letter topic the broker
 * hands it out again later. DROP sends it to the dead letter at once, never retried; a 404 is
 * acknowledged with no dead letter (pkg/runtime/subscription/publish.go).
 */
export class StandinPubsub {
  subscriptions: SubscriptionEntry[] = [];
  private publishFailures = 0;

  constructor(
    private readonly channel: AppChannel,
    private readonly broker: StandinBroker,
    private readonly resiliency: readonly ResiliencyDocument[],
    consumerIDs: Readonly<Record<string, string>>,
  ) {
    this.consumerIDs = consumerIDs;
  }

  private readonly consumerIDs: Readonly<Record<string, string>>;
  /** A sidecar expands `{uuid}` once, when it loads the component. */
  private readonly expanded = new Map<string, string>();

  /** The consumer group this sidecar reads `component` with. */
  private groupOf(component: string): string {
    let group = this.expanded.get(component);
    if (group === undefined) {
      group = (this.consumerIDs[component] ?? "{appID}")
        .replaceAll("{appID}", this.channel.appId)
        .replaceAll("{uuid}", () => randomUUID());
      this.expanded.set(component, group);
    }
    return group;
  }

  /** Reads the app's subscriptions as daprd does at start-up, and joins the app's consumer group. */
  async readSubscriptions(): Promise<void> {
    const entries = (await (await this.channel.callApp("GET", "/dapr/subscribe")).json()) as Array<
      SubscriptionEntry & { routes?: { default?: string } }
    >;
    this.subscriptions = entries.map((entry) => ({
      ...entry,
      route: entry.route ?? entry.routes?.default ?? "",
    }));
    for (const component of new Set(this.subscriptions.map((s) => s.pubsubname))) {
      this.broker.join(this.groupOf(component), this, component);
    }
  }

  /** The app is gone: its consumer group's other sidecars take its share. */
  leave(): void {
    this.broker.leave(this);
  }

  /** Every publication the broker accepted (dead letters included), optionally for one topic. */
  published(topic?: string): CloudEvent[] {
    return this.broker.log.filter((event) => topic === undefined || event.topic === topic);
  }

  /** The next `count` publish calls fail with 500, as when the broker is unreachable. */
  failNextPublishes(count: number): void {
    this.publishFailures = count;
  }

  subscribes(component: string, topic: string): boolean {
    return this.subscriptions.some((s) => s.pubsubname === component && s.topic === topic);
  }

  receive(event: CloudEvent): void {
    for (const subscription of this.subscriptions) {
      if (subscription.pubsubname === event.pubsubname && subscription.topic === event.topic) {
        this.channel.track(this.deliver(subscription, event, this.backoff(event.pubsubname)));
      }
    }
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
      this.broker.publish(event);
      ctx.status = 204;
    });
  }

  private backoff(pubsub: string): Backoff | undefined {
    const spec = inboundPubsubRetry(this.resiliency, this.channel.appId, pubsub);
    return spec && new Backoff(spec, () => this.channel.clock.now(), this.channel.random);
  }

  private async deliver(
    subscription: SubscriptionEntry,
    event: CloudEvent,
    backoff: Backoff | undefined,
  ): Promise<void> {
    const outcome = await this.outcome(subscription, event);
    if (outcome === "delivered") return;
    if (outcome === "failed") {
      const wait = backoff?.next();
      if (wait !== undefined) {
        this.channel.after(wait, () => this.channel.track(this.deliver(subscription, event, backoff)));
        return;
      }
    }
    if (subscription.deadLetterTopic) {
      this.broker.publish({ ...event, topic: subscription.deadLetterTopic });
      return;
    }
    // Unacknowledged: pubsub.redis hands the message out again, with a fresh policy run.
    if (outcome === "failed") {
      this.channel.after(REDELIVER_INTERVAL_MS, () => this.receive(event));
    }
  }

  /**
   * daprd 1.16's reading of the app's answer: any 2xx is delivered unless its JSON body names a
   * status, compared case-sensitively: `RETRY` and unknown statuses fail, `DROP` drops; a 2xx body
   * that is empty or not a JSON object with a string status counts as delivered. A 404 is
   * acknowledged and lost (daprd only logs it); any other status, or no answer, fails.
   */
  private async outcome(subscription: SubscriptionEntry, event: CloudEvent): Promise<Outcome> {
    let response: Response;
    try {
      response = await this.channel.callApp(
        "POST",
        subscription.route,
        JSON.stringify(event),
        "application/cloudevents+json",
      );
    } catch {
      return "failed";
    }
    const body = await response.text();
    // daprd logs a 404 as non-retriable and acknowledges it: no retry and no dead letter.
    if (response.status === 404) return "delivered";
    if (response.status < 200 || response.status > 299) return "failed";
    const status = statusOf(body);
    if (status === undefined || status === "" || status === "SUCCESS") return "delivered";
    return status === "DROP" ? "dropped" : "failed";
  }
}

/** The `status` of a JSON object body (its key matched case-insensitively, as Go decodes it). */
function statusOf(body: string): string | undefined {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return undefined;
  const key = Object.keys(answer).find((k) => k.toLowerCase() === "status");
  const status = key === undefined ? undefined : (answer as Record<string, unknown>)[key];
  return typeof status === "string" ? status : undefined;
}
