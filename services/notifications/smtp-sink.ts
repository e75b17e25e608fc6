/**
 * The embedded default's mail server: a real SMTP server (the smtp-server package) on this
 * machine that takes every message and keeps the latest ones in memory, for the demo and the tests
 * to read. Nothing leaves the machine. `SMTP_URL` sends to a real relay instead.
 *
 * A message is kept as the bytes that arrived and parsed when it is first read (or at once for an
 * `onMessage` listener): a saga run sends a passenger a message that, on a service nobody reads the
 * sink of, no one ever reads, and parsing each as it came cost the run more than the rest of its
 * SMTP exchange on the sink's side.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SunkMessage {
  /** The SMTP envelope's sender and recipients, as the client gave them. */
  envelope: { from: string | null; to: string[] };
  subject: string;
  text: string;
  /** The Message-ID header. */
  messageId: string | null;
  /** The X-Notification-Urn header the e-mail channel sets: receivers dedupe repeated sends by it. */
  notificationUrn: string | null;
  receivedAt: string;
}

/** Messages kept; older ones are dropped first. */
export const SMTP_SINK_CAPACITY = 500;
const MAX_MESSAGE_BYTES = 1_000_000;
/**
 * A kept message holds the subject, the plain text and two headers: the HTML renderings the
 * parser would also make (text to HTML with its links found by linkify, HTML to text) are never
 * read, and making them cost the sink more than the rest of the parse.
 */
const PARSE_OPTIONS = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
} as const;

/** A message as it arrived: its envelope and bytes, and once read, its parse. */
interface ArrivedMessage {
  envelope: SunkMessage["envelope"];
  raw: Buffer;
  receivedAt: string;
  parsed?: Promise<SunkMessage>;
}

export class SmtpSink {
  private readonly kept: ArrivedMessage[] = [];
  private readonly waiting = new Set<() => void>();

  /** Use `SmtpSink.start`. */
  constructor(
    private readonly server: SMTPServer,
    readonly url: string,
    private readonly onMessage: ((message: SunkMessage) => void) | undefined,
  ) {}

  /**
   * Listens on 127.0.0.1 (`port` 0: a free port); `smtp://127.0.0.1:<port>` is where to send.
   * `onMessage` hears each message as it arrives, parsed.
   */
  static async start(
    options: { port?: number; onMessage?: (message: SunkMessage) => void } = {},
  ): Promise<SmtpSink> {
    let sink: SmtpSink | undefined;
    const server = new SMTPServer({
      authOptional: true,
      // Nothing here needs the client's host name; looking it up costs each connection a DNS query.
      disableReverseLookup: true,
      // On shutdown, a pooled client's connection is told to go (421) after a second, not 30.
      closeTimeout: 1_000,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      size: MAX_MESSAGE_BYTES,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.once("error", callback);
        stream.once("end", () => {
          sink?.keep({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            raw: Buffer.concat(chunks),
            receivedAt: new Date().toISOString(),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
    const { port } = server.server.address() as AddressInfo;
    sink = new SmtpSink(server, `smtp://127.0.0.1:${port}`, options.onMessage);
    return sink;
  }

  /** What the sink received, oldest first. */
  messages(): Promise<SunkMessage[]> {
    return Promise.all(this.kept.map((arrived) => parsedOf(arrived)));
  }

  /** Resolves with the first kept message `match` accepts, now or once it arrives. */
  waitFor(match: (message: SunkMessage) => boolean, timeoutMs = 5_000): Promise<SunkMessage> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.waiting.delete(check);
        outcome();
      };
      const check = () => {
        this.messages().then(
          (messages) => {
            const message = messages.find(match);
            if (message) settle(() => resolve(message));
          },
          (error: unknown) => settle(() => reject(error)),
        );
      };
      const timer = setTimeout(
        () =>
          settle(() => reject(new Error(`no matching message reached the SMTP sink within ${timeoutMs} ms`))),
        timeoutMs,
      );
      this.waiting.add(check);
      check();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private keep(arrived: ArrivedMessage): void {
    this.kept.push(arrived);
    if (this.kept.length > SMTP_SINK_CAPACITY) this.kept.splice(0, this.kept.length - SMTP_SINK_CAPACITY);
    const onMessage = this.onMessage;
    if (onMessage) parsedOf(arrived).then(onMessage, () => undefined);
    for (const check of [...this.waiting]) check();
  }
}

/** The message's parse, made once, on its first read. */
function parsedOf(arrived: ArrivedMessage): Promise<SunkMessage> {
  arrived.parsed ??= simpleParser(arrived.raw, PARSE_OPTIONS).then((parsed) => ({
    envelope: arrived.envelope,
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    messageId: parsed.messageId ?? null,
    notificationUrn: headerText(parsed.headers.get("x-notification-urn")),
    receivedAt: arrived.receivedAt,
  }));
  return arrived.parsed;
}

function headerText(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
