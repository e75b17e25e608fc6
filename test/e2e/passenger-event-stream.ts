import type { IncomingHttpHeaders } from "node:http";
import { request } from "node:http";

/** A server-sent event as a client parses it. */
export interface StreamedEvent {
  id: string | undefined;
  event: string;
  data: Record<string, any>;
}

export interface EventStreamClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** The next event (comments and `retry` lines are collected, not returned); fails after 5 s. */
  next(): Promise<StreamedEvent>;
  /** Comment lines seen so far (`: heartbeat` → "heartbeat"). */
  comments: string[];
  close(): void;
}

/**
 * Opens `url` as an EventSource would, with the session token as a bearer. Over node:http: an
 * aborted fetch leaves undici holding a connection the server then waits on at shutdown.
 */
export function openEventStream(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream", ...headers } },
      (res) => {
        const comments: string[] = [];
        const ready: StreamedEvent[] = [];
        const waiting: (() => void)[] = [];
        let buffer = "";
        let ended = false;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            const fields: Record<string, string> = {};
            for (const line of buffer.slice(0, end).split("\n")) {
              if (line.startsWith(":")) comments.push(line.slice(1).trim());
              else {
                const colon = line.indexOf(":");
                fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
              }
            }
            buffer = buffer.slice(end + 2);
            if (fields.data !== undefined) {
              ready.push({ id: fields.id, event: fields.event ?? "message", data: JSON.parse(fields.data) });
            }
            end = buffer.indexOf("\n\n");
          }
          for (const wake of waiting.splice(0)) wake();
        });
        res.on("close", () => {
          ended = true;
          for (const wake of waiting.splice(0)) wake();
        });
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          comments,
          async next() {
            const deadline = Date.now() + 5_000;
            while (ready.length === 0) {
              if (ended) throw new Error("the stream ended");
              if (Date.now() >= deadline) throw new Error("no event within 5 s");
              await new Promise<void>((wake) => {
                waiting.push(wake);
                setTimeout(wake, Math.max(0, deadline - Date.now()));
              });
            }
            return ready.shift()!;
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}
