/** Where this app's Dapr sidecar listens (`DAPR_HTTP_PORT`, `DAPR_API_TOKEN`). */
export interface SidecarAddress {
  host?: string;
  httpPort: number;
  apiToken?: string;
}

export interface SidecarRequest {
  /** Sent as JSON unless it is already a string. */
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** A non-2xx answer from the sidecar, with the body Dapr explained it in. */
export class SidecarRequestError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`Dapr sidecar answered ${status} to ${method} ${path}: ${body}`);
    this.name = "SidecarRequestError";
  }
}

export function sidecarBaseUrl(address: SidecarAddress): string {
  return `http://${address.host ?? "127.0.0.1"}:${address.httpPort}`;
}

/**
 * The sidecar's HTTP API over the global fetch: the SDK's client waits up to 30 s for a missing
 * sidecar and resolves some failures as `{error}` values, while every call here fails fast and loud.
 */
export class SidecarHttp {
  private readonly baseUrl: string;

  constructor(private readonly address: SidecarAddress) {
    this.baseUrl = sidecarBaseUrl(address);
  }

  /** Resolves with the response for any 2xx status; throws SidecarRequestError otherwise. */
  async request(method: string, path: string, request: SidecarRequest = {}): Promise<Response> {
    const headers: Record<string, string> = { ...request.headers };
    if (this.address.apiToken) headers["dapr-api-token"] = this.address.apiToken;
    let body: string | undefined;
    if (request.body !== undefined) {
      body = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body,
      signal: request.timeoutMs === undefined ? undefined : AbortSignal.timeout(request.timeoutMs),
    });
    if (response.status < 200 || response.status > 299) {
      throw new SidecarRequestError(method, path, response.status, await response.text());
    }
    return response;
  }

  /** Like `request`, then parses the body as JSON (`undefined` for an empty body). */
  async json<T>(method: string, path: string, request?: SidecarRequest): Promise<T | undefined> {
    const text = await (await this.request(method, path, request)).text();
    return text === "" ? undefined : (JSON.parse(text) as T);
  }
}
