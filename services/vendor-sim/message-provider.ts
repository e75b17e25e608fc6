/**
 * Simulated notification providers: an SMS gateway and a messaging app, each with a small HTTP API
 * of its own, as the hotel vendor simulators have (in process on the embedded default, under
 * `/<provider id>` in the vendor-sim app on the distributed runtime).
 *
 *   POST /v1/messages      Authorization: Bearer <api key>
 *                          {to, text, reference, statusCallback}  → 202 {messageId, status: "queued"}
 *                          401 bad key, 400 bad body, 422 unreachable recipient, 503 injected outage
 *   GET  /v1/messages/<id> the message and the callbacks sent about it
 *
 * After taking a message it calls `statusCallback` back, signed with its callback secret
 * (src/domain/notification-callbacks.ts): `delivered`, or `bounced` for a recipient set to bounce.
 * `reply` and `optOut` (tests, demos, `/_sim/...` on the vendor-sim app) make the passenger answer.
 * A callback that gets no 2xx is sent again a few times, as providers do.
 */
import { type DeliveryCallback, type DeliveryStatus } from "../../src/domain/notification-callbacks.js";
import { randomUuid } from "../../src/domain/uuid.js";
import type { Clock } from "../../src/runtime/clock.js";
import { type CallbackPoster, deliverSignedCallback, httpPoster } from "./signed-callback.js";
import {
  type WireEndpoint,
  type WireRequest,
  type WireResponse,
  jsonResponse,
} from "../../src/vendors/wire.js";

export type MessageProviderId = "sms" | "messaging";

/** What a recipient does with the next messages: the default is `delivered`. */
export type RecipientBehaviour = "delivered" | "bounced" | "unreachable" | "silent";

export interface MessageProviderSettings {
  id: MessageProviderId;
  apiKey: string;
  callbackSecret: string;
}

export interface SentCallback {
  eventId: string;
  type: DeliveryStatus;
  /** The HTTP status of the last try; null when no answer came. */
  status: number | null;
  tries: number;
}

export interface SimulatedMessage {
  messageId: string;
  to: string;
  text: string;
  reference: string;
  statusCallback: string;
  acceptedAt: string;
  callbacks: SentCallback[];
}

const MAX_MESSAGES_KEPT = 10_000;

export class MessageProviderSimulator implements WireEndpoint {
  readonly id: MessageProviderId;
  private readonly messages = new Map<string, SimulatedMessage>();
  private readonly recipients = new Map<string, RecipientBehaviour>();
  private outages = 0;

  constructor(
    private readonly settings: MessageProviderSettings,
    private readonly clock: Clock,
    private readonly post: CallbackPoster = httpPoster,
    private readonly onMessage: (message: SimulatedMessage) => void = () => {},
  ) {
    this.id = settings.id;
  }

  async handle(request: WireRequest): Promise<WireResponse> {
    const path = request.path.split("?")[0]!;
    if (request.headers.authorization !== `Bearer ${this.settings.apiKey}`) {
      return jsonResponse(401, { error: "unauthorized" });
    }
    if (request.method === "POST" && path === "/v1/messages") return this.accept(request.body);
    const read = /^\/v1\/messages\/([^/]+)$/.exec(path);
    if (request.method === "GET" && read) {
      const message = this.messages.get(decodeURIComponent(read[1]!));
      return message ? jsonResponse(200, message) : jsonResponse(404, { error: "unknown message" });
    }
    return jsonResponse(404, { error: "not found" });
  }

  /** The next `times` sends answer 503. */
  failNext(times = 1): void {
    this.outages += times;
  }

  setRecipient(to: string, behaviour: RecipientBehaviour): void {
    this.recipients.set(to, behaviour);
  }

  /** What the provider took, oldest first. */
  sent(): SimulatedMessage[] {
    return [...this.messages.values()];
  }

  message(messageId: string): SimulatedMessage | undefined {
    return this.messages.get(messageId);
  }

  /** The passenger answers the message; resolves once the callback has been answered (or given up). */
  reply(messageId: string, text: string): Promise<SentCallback | undefined> {
    return this.callBack(messageId, "replied", { text });
  }

  /** The passenger opts out through the provider's own means (not a reply). */
  optOut(messageId: string): Promise<SentCallback | undefined> {
    return this.callBack(messageId, "opted-out", {});
  }

  private accept(body: string | undefined): WireResponse {
    const input = parse(body);
    if (!input) return jsonResponse(400, { error: "to, text, reference and statusCallback are required" });
    if (this.outages > 0) {
      this.outages--;
      return jsonResponse(503, { error: "temporarily unavailable" });
    }
    const behaviour = this.recipients.get(input.to) ?? "delivered";
    if (behaviour === "unreachable") return jsonResponse(422, { error: "unreachable recipient" });
    const message: SimulatedMessage = {
      messageId: randomUuid(`${this.id}-`),
      ...input,
      acceptedAt: new Date(this.clock.now()).toISOString(),
      callbacks: [],
    };
    this.messages.set(message.messageId, message);
    this.onMessage(message);
    if (this.messages.size > MAX_MESSAGES_KEPT) this.messages.delete(this.messages.keys().next().value!);
    if (behaviour !== "silent") {
      // After the answer, as a provider reports delivery later.
      this.clock.setTimer(() => {
        void this.callBack(message.messageId, behaviour === "bounced" ? "bounced" : "delivered", {
          ...(behaviour === "bounced" ? { reason: "handset unreachable" } : {}),
        });
      }, 0);
    }
    return jsonResponse(202, { messageId: message.messageId, status: "queued" });
  }

  private async callBack(
    messageId: string,
    type: DeliveryStatus,
    extra: Pick<DeliveryCallback, "text" | "reason">,
  ): Promise<SentCallback | undefined> {
    const message = this.messages.get(messageId);
    if (!message) return undefined;
    const callback: DeliveryCallback = {
      eventId: randomUuid(`${this.id}-evt-`),
      messageId,
      type,
      occurredAt: new Date(this.clock.now()).toISOString(),
      ...extra,
    };
    const sent: SentCallback = { eventId: callback.eventId, type, status: null, tries: 0 };
    message.callbacks.push(sent);
    await deliverSignedCallback(
      {
        url: message.statusCallback,
        eventId: callback.eventId,
        body: JSON.stringify(callback),
        secret: this.settings.callbackSecret,
      },
      sent,
      {
        now: () => this.clock.now(),
        post: this.post,
        wait: (ms) => new Promise<void>((resolve) => this.clock.setTimer(resolve, ms)),
      },
    );
    return sent;
  }
}

function parse(
  body: string | undefined,
): Omit<SimulatedMessage, "messageId" | "acceptedAt" | "callbacks"> | undefined {
  try {
    const input = JSON.parse(body ?? "") as Record<string, unknown>;
    const { to, text, reference, statusCallback } = input;
    if ([to, text, reference, statusCallback].some((v) => typeof v !== "string" || v === ""))
      return undefined;
    return {
      to: to as string,
      text: text as string,
      reference: reference as string,
      statusCallback: statusCallback as string,
    };
  } catch {
    return undefined;
  }
}

/** The demo providers' settings: the same on every start, as the hotel vendors' credentials are. */
export const DEMO_MESSAGE_PROVIDERS: Record<MessageProviderId, MessageProviderSettings> = {
  sms: { id: "sms", apiKey: "demo-sms-api-key", callbackSecret: "demo-sms-callback-secret" },
  messaging: {
    id: "messaging",
    apiKey: "demo-messaging-api-key",
    callbackSecret: "demo-messaging-callback-secret",
  },
};

/** The two simulated providers of a platform (the embedded default's, or the vendor-sim app's). */
export class MessageProviderSimulators {
  readonly sms: MessageProviderSimulator;
  readonly messaging: MessageProviderSimulator;
  readonly all: readonly MessageProviderSimulator[];

  constructor(
    clock: Clock,
    options: {
      post?: CallbackPoster;
      /** Told of every message a provider takes (the demo logs them: they carry the magic links). */
      onMessage?: (provider: MessageProviderId, message: SimulatedMessage) => void;
    } = {},
  ) {
    const provider = (id: MessageProviderId) =>
      new MessageProviderSimulator(DEMO_MESSAGE_PROVIDERS[id], clock, options.post, (message) =>
        options.onMessage?.(id, message),
      );
    this.sms = provider("sms");
    this.messaging = provider("messaging");
    this.all = [this.sms, this.messaging];
  }

  byId(id: string): MessageProviderSimulator | undefined {
    return this.all.find((sim) => sim.id === id);
  }
}
