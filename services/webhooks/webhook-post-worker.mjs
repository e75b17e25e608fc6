// The webhook POSTs of one process, on a thread of their own (services/webhooks/http-webhook-transport.ts):
// a delivery leaves as soon as it is handed over, however busy the main thread is. Plain JavaScript,
// so it loads under any loader (tsx, Vitest, plain Node).
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { parentPort, workerData } from "node:worker_threads";

const agents = {
  "http:": new HttpAgent({ keepAlive: true, maxSockets: workerData.socketsPerHost }),
  "https:": new HttpsAgent({ keepAlive: true, maxSockets: workerData.socketsPerHost }),
};

parentPort.on("message", ({ id, url, headers, body, timeoutMs }) => {
  const target = new URL(url);
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  const payload = Buffer.from(body, "utf8");
  let settled = false;
  const answer = (message) => {
    if (settled) return;
    settled = true;
    parentPort.postMessage({ id, ...message });
  };
  const outgoing = request(
    target,
    {
      method: "POST",
      agent: agents[target.protocol],
      headers: { ...headers, "Content-Length": String(payload.length) },
      signal: AbortSignal.timeout(timeoutMs),
    },
    (response) => {
      response.resume();
      response.on("end", () => answer({ status: response.statusCode ?? 0 }));
      response.on("error", (error) => answer({ error: error.message }));
    },
  );
  outgoing.on("error", (error) => answer({ error: error.message }));
  outgoing.end(payload);
});
