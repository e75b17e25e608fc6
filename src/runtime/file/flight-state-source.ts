import { readFile } from "node:fs/promises";
import type { FlightStateConsumer, FlightStateSource } from "../flight-state-source.js";

/**
 * A recorded flight-state stream (the demo's): a JSON Lines file, one message per line, handed over
 * in order once when the source starts. Blank lines and lines starting with `#` are skipped. A
 * message whose handling fails is tried once more, then reported, as the broker adapter does.
 */
export class FileFlightStateSource implements FlightStateSource {
  readonly description: string;
  private replay: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly path: string) {
    this.description = `file ${path}`;
  }

  async start(consumer: FlightStateConsumer): Promise<void> {
    const lines = (await readFile(this.path, "utf8")).split("\n");
    this.replay = (async () => {
      for (const line of lines) {
        if (this.closed) return;
        const raw = line.trim();
        if (!raw || raw.startsWith("#")) continue;
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch (error) {
          consumer.onUnreadable(raw, error);
          continue;
        }
        await consumer
          .handle(body)
          .catch(() => consumer.handle(body).catch((error: unknown) => consumer.onGivenUp(body, error)));
      }
    })();
  }

  /** Resolves once every line was handed over (for tests and the demo's logs). */
  async drained(): Promise<void> {
    await this.replay;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.replay;
  }
}
