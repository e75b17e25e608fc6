/**
 * Keeping the offer screen current (spec 4.4, 8.2): the group's server-sent events
 * (`GET /v1/me/events`; EventSource resumes with Last-Event-ID on its own) reload the screen when
 * something happens, and a 30-second poll of the offer runs while the offer is not terminal, for
 * when the stream cannot get through (a proxy, a phone between networks). Time comes from an
 * injected scheduler so the tests move it instead of waiting.
 */

/** Every 30 seconds on the offer screen while the offer is non-terminal (spec 8.2). */
export const OFFER_POLL_MS = 30_000;

export const EVENTS_PATH = "/v1/me/events";

/** The sub-case states after which the offer no longer changes (spec 3.4). */
export const TERMINAL_OFFER_STATES: readonly string[] = [
  "RESOLVED",
  "DECLINED",
  "FAILED",
  "COMPENSATION_FAILED",
];

/** The reads of the offer screen an event can change. */
export type ScreenRead = "offer" | "transport" | "notifications";

/**
 * The stream's events the screen reacts to, and the reads each one changes (the route's OpenAPI
 * description lists every event). `reset`: the stream could not resume, so everything is reloaded.
 * The saga's steps are left out: the sub-case's own moves say what the passenger sees.
 */
export const STREAM_EVENTS: Readonly<Record<string, readonly ScreenRead[]>> = {
  "subcase.opened": ["offer"],
  "subcase.processing": ["offer"],
  "subcase.offer-ready": ["offer"],
  "subcase.resolved": ["offer"],
  "subcase.declined": ["offer"],
  "subcase.failed": ["offer"],
  "subcase.compensation-failed": ["offer"],
  "subcase.retired": ["offer"],
  "subcase.case-closed": ["offer"],
  "subcase.case-reopened": ["offer"],
  "notification.dispatched": ["notifications"],
  "transport.eta-updated": ["transport"],
  "transport.segment-booked": ["transport"],
  "transport.segment-declined": ["transport"],
  "transport.segment-cancelled": ["transport"],
  "transport.segment-completed": ["transport"],
  reset: ["offer", "transport", "notifications"],
};

export interface Scheduler {
  /** Runs `task` every `ms` until the returned function is called. */
  every(ms: number, task: () => void): () => void;
}

/** What the app needs of an EventSource. */
export interface EventStream {
  addEventListener(type: string, listener: (event: { type: string }) => void): void;
  close(): void;
}

export interface LiveOfferOptions {
  openStream: (path: string) => EventStream;
  scheduler: Scheduler;
  /** Reload these reads of the screen (the poll reloads the offer). */
  reload: (reads: readonly ScreenRead[]) => void;
}

export interface LiveOffer {
  /** Tell it the offer's status after each read: the poll runs only while it is not terminal. */
  offerIs(status: string): void;
  close(): void;
}

export function liveOffer(options: LiveOfferOptions): LiveOffer {
  const stream = options.openStream(EVENTS_PATH);
  for (const [name, reads] of Object.entries(STREAM_EVENTS)) {
    stream.addEventListener(name, () => options.reload(reads));
  }
  let stopPolling: (() => void) | undefined;
  return {
    offerIs(status) {
      const open = !TERMINAL_OFFER_STATES.includes(status);
      if (open && !stopPolling)
        stopPolling = options.scheduler.every(OFFER_POLL_MS, () => options.reload(["offer"]));
      if (!open && stopPolling) {
        stopPolling();
        stopPolling = undefined;
      }
    },
    close() {
      stopPolling?.();
      stopPolling = undefined;
      stream.close();
    },
  };
}

/**
 * `load` run by many callers as one: a call while it runs makes it run once more after, however
 * many calls came (a burst of events costs two reads, not one each: the session may read 30 times
 * a minute, spec 8.1).
 */
export function coalesce(load: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const loop = async () => {
    try {
      do {
        again = false;
        await load();
      } while (again);
    } finally {
      running = undefined;
    }
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = loop();
    return running;
  };
}

/** The browser's timers as a Scheduler. */
export const browserScheduler: Scheduler = {
  every(ms, task) {
    const handle = setInterval(task, ms);
    return () => clearInterval(handle);
  },
};
