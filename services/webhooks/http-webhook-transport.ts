import { lookup } from "node:dns/promises";
import { Worker } from "node:worker_threads";
import type { WebhookTransport } from "../../src/app/webhooks/webhook-transport.js";

/** Connections kept open per receiver host, so a burst reuses them instead of a handshake each. */
const SOCKETS_PER_HOST = 128;

interface Pending {
  resolve(answer: { status: number }): void;
  reject(error: Error): void;
}

/**
 * Webhooks over the network, sent from a worker thread (webhook-post-worker.mjs) with Node's HTTP
 * client and keep-alive agents: a delivery handed over leaves at once, even while the main thread
 * is busy with a flight's allocation and booking (spec 8.1: Tier-1 deliveries within 5 s at p95).
 * Redirects are never followed (a 3xx is a failed delivery), response bodies are discarded, and a
 * request is aborted once the timeout passes, whatever stage it is at. The thread starts with the
 * first delivery and does not keep the process alive.
 */
export function httpWebhookTransport(): WebhookTransport & { close(): Promise<void> } {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();
  const failAll = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(new URL("./webhook-post-worker.mjs", import.meta.url), {
      workerData: { socketsPerHost: SOCKETS_PER_HOST },
    });
    started.unref();
    started.on("message", ({ id, status, error }: { id: number; status?: number; error?: string }) => {
      const waiting = pending.get(id);
      pending.delete(id);
      if (!waiting) return;
      if (status === undefined) waiting.reject(new Error(error ?? "no answer"));
      else waiting.resolve({ status });
    });
    started.on("error", (error) => failAll(error));
    started.on("exit", () => {
      if (worker === started) worker = undefined;
      failAll(new Error("the webhook thread stopped"));
    });
    worker = started;
    return started;
  };
  return {
    post(url, headers, body, timeoutMs) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        thread().postMessage({ id, url, headers, body, timeoutMs });
      });
    },
    async resolve(host) {
      const addresses = await lookup(host, { all: true, verbatim: true });
      return addresses.map((entry) => entry.address);
    },
    async close() {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
      failAll(new Error("the webhook transport is closed"));
    },
  };
}
