import { sidecarBaseUrl } from "./sidecar-http.js";

/**
 * True when a Dapr sidecar answers `GET /v1.0/metadata` on `httpPort` within `timeoutMs`. The SDK
 * would wait about 30 s for a missing sidecar; start-up uses this to pick the runtime instead.
 */
export async function probeSidecar(httpPort: number, timeoutMs = 1500, host = "127.0.0.1"): Promise<boolean> {
  try {
    const response = await fetch(`${sidecarBaseUrl({ host, httpPort })}/v1.0/metadata`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
