import { PassThrough } from "node:stream";
import type { PassengerSnapshots } from "../../src/app/passengers/passenger-snapshot.js";
import type { Clock, TimerHandle } from "../../src/runtime/clock.js";
import { defineRoute } from "../../src/http/route.js";
import { SUB_CASE_EVENT } from "../../src/domain/events/sub-case.js";
import type { PassengerEventStreams } from "./passenger-event-streams.js";
import { PASSENGER_STREAM_TYPES, type PassengerStreamMessage } from "./passenger-stream-events.js";

/** A comment line this often keeps proxies and phones from closing an idle stream. */
export const HEARTBEAT_INTERVAL_MS = 15_000;

/** How long a browser's EventSource waits before reconnecting (the SSE `retry` field). */
const RECONNECT_MS = 3_000;

/** `event: reset`: the client resumed from further back than the log holds; it reloads its reads. */
const RESET_EVENT = "reset";

/**
 * `GET /v1/me/events` (spec 4.4): server-sent events for the session's group, as
 * `passenger-stream-events.ts` lists them, each with its event URN as `id`. A `: heartbeat`
 * comment every 15 s. Resume: `Last-Event-ID` (which EventSource sends on its own when it
 * reconnects) replays what the group's stream got since that event, within the last hour; from
 * further back, or an id the log does not hold, the stream starts with `event: reset` and the
 * client reloads `GET /v1/me/offer`. Without it the stream starts from now.
 */
export function passengerEventStreamRoute(deps: {
  snapshots: PassengerSnapshots;
  streams: PassengerEventStreams;
  clock: Clock;
}) {
  return defineRoute({
    method: "GET",
    path: "/v1/me/events",
    operationId: "streamPassengerEvents",
    summary: "Server-sent events of the group: offer changes, saga steps, notifications; resumable",
    description:
      `Event names: ${PASSENGER_STREAM_TYPES.join(", ")}; each \`data\` is one JSON object. ` +
      "Heartbeat: a `: heartbeat` comment every 15 s. Resume with `Last-Event-ID` (header, or the " +
      "`lastEventId` query parameter for a first connection from a stored id): the events of the last " +
      "hour after it are sent first; `event: reset` when the id is unknown or older, meaning reload " +
      "`GET /v1/me/offer`. Not cached.",
    tags: ["Passenger"],
    access: { kind: "passenger" },
    cache: "none",
    query: {
      type: "object",
      properties: {
        lastEventId: {
          type: "string",
          minLength: 1,
          maxLength: 200,
          description: "As the Last-Event-ID header",
        },
      },
    },
    responses: {
      200: {
        description: "The stream (`text/event-stream`), open until the client leaves",
        // No schema: the body is a stream of events, not one document (the description says its form).
        contentType: "text/event-stream",
      },
    },
    handler: async ({ principal, query, ctx }) => {
      // The group must still be in its case (404 otherwise), as for every passenger read.
      const { subCase } = await deps.snapshots.of(principal);
      const stream = subCase.subCaseUrn;
      const lastEventId = ctx.get("Last-Event-ID") || query.lastEventId;
      const body = new PassThrough();
      body.write(`retry: ${RECONNECT_MS}\n\n`);

      // Listen first, hold what arrives during the replay, then send it after, without repeats.
      let held: PassengerStreamMessage[] | undefined = [];
      const sent = new Set<string>();
      const send = (message: PassengerStreamMessage) => {
        if (closed || sent.has(message.id)) return;
        sent.add(message.id);
        body.write(`id: ${message.id}\nevent: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`);
        // A session is refused once its case is closed: its stream ends then too.
        if (message.event === SUB_CASE_EVENT.caseClosed) close();
      };
      const stopListening = deps.streams.listen(stream, (message) => {
        if (held) held.push(message);
        else send(message);
      });

      let heartbeat: TimerHandle | undefined;
      const beat = () => {
        body.write(": heartbeat\n\n");
        heartbeat = deps.clock.setTimer(beat, HEARTBEAT_INTERVAL_MS);
      };
      heartbeat = deps.clock.setTimer(beat, HEARTBEAT_INTERVAL_MS);
      // ... and when the session expires.
      const expiry = deps.clock.setTimer(() => close(), principal.expiresAt - deps.clock.now());
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        heartbeat?.cancel();
        expiry.cancel();
        stopListening();
        untrack();
        body.end();
      };
      const untrack = deps.streams.track(close);
      // A client that leaves takes the connection with it: a connection whose response never
      // finished is not idle to the server, which would wait out its keep-alive before closing.
      ctx.res.on("close", () => {
        close();
        ctx.req.socket.destroy();
      });
      ctx.req.socket.setTimeout(0);
      ctx.req.socket.setNoDelay(true);

      if (lastEventId) {
        const replay = await deps.streams.replay(stream, lastEventId);
        if (!replay.complete) {
          body.write(`event: ${RESET_EVENT}\ndata: ${JSON.stringify({ reason: "resume-beyond-log" })}\n\n`);
        }
        for (const message of replay.messages) send(message);
      }
      const pending = held;
      held = undefined;
      for (const message of pending) send(message);
      return {
        status: 200,
        body,
        headers: {
          "Content-Type": "text/event-stream; charset=utf-8",
          "Cache-Control": "no-cache, no-store",
          "X-Accel-Buffering": "no",
          // Once the stream ends (case closed, session expired, shutdown) the connection goes too.
          Connection: "close",
        },
      };
    },
  });
}
