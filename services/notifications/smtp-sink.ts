/**
 * The embedded default's mail server: a real SMTP server (the smtp-server package) on this
 * machine that takes every message and keeps the latest ones in memory, parsed, for the demo and
 * the tests to read. Nothing leaves the machine. `SMTP_URL` sends to a real relay instead.
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

export class SmtpSink {
  private readonly kept: SunkMessage[] = [];
  private readonly waiting = new Set<() => void>();

  /** Use `SmtpSink.start`. */
  constructor(
    private readonly server: SMTPServer,
    readonly url: string,
    private readonly onMessage: (message: SunkMessage) => void,
  ) {}

  /** Listens on 127.0.0.1 (`port` 0: a free port); `smtp://127.0.0.1:<port>` is where to send. */
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
        simpleParser(stream, PARSE_OPTIONS).then(
          (parsed) => {
            sink?.keep({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              messageId: parsed.messageId ?? null,
              notificationUrn: headerText(parsed.headers.get("x-notification-urn")),
              receivedAt: new Date().toISOString(),
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
    const { port } = server.server.address() as AddressInfo;
    sink = new SmtpSink(server, `smtp://127.0.0.1:${port}`, options.onMessage ?? (() => {}));
    return sink;
  }

  /** What the sink received, oldest first. */
  messages(): SunkMessage[] {
    return [...this.kept];
  }

  /** Resolves with the first kept message `match` accepts, now or once it arrives. */
  async waitFor(match: (message: SunkMessage) => boolean, timeoutMs = 5_000): Promise<SunkMessage> {
    const found = () => this.kept.find(match);
    const now = found();
    if (now) return now;
    return new Promise((resolve, reject) => {
      const check = () => {
        const message = found();
        if (!message) return;
        cleanup();
        resolve(message);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching message reached the SMTP sink within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiting.delete(check);
      };
      this.waiting.add(check);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private keep(message: SunkMessage): void {
    this.kept.push(message);
    if (this.kept.length > SMTP_SINK_CAPACITY) this.kept.splice(0, this.kept.length - SMTP_SINK_CAPACITY);
    this.onMessage(message);
    for (const check of [...this.waiting]) check();
  }
}

function headerText(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
