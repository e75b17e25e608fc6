import { type SidecarAddress, sidecarBaseUrl } from "./sidecar-http.js";

/**
 * True when a Dapr sidecar answers `GET /v1.0/metadata` within `timeoutMs`. The SDK would wait
 * about 30 s for a missing sidecar; start-up uses this to pick the runtime instead. The metadata
 * API wants the API token like every other (only the health API is open).
 */
export async function probeSidecar(address: SidecarAddress, timeoutMs = 1500): Promise<boolean> {
  try {
    const response = await fetch(`${sidecarBaseUrl(address)}/v1.0/metadata`, {
      headers: address.apiToken ? { "dapr-api-token": address.apiToken } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
