/**
 * How webhooks leave the service: an HTTP POST that never follows redirects (a redirect could point
 * anywhere, SSRF rules included) and gives up after `timeoutMs`, and the name resolution the SSRF
 * rules check before each send. main.ts chooses the adapter (services/webhooks/http-webhook-transport.ts).
 */
export interface WebhookTransport {
  /** The response's status; throws on a connection error or when no answer came within `timeoutMs`. */
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
  ): Promise<{ status: number }>;
  /** Every address the host resolves to. */
  resolve(host: string): Promise<string[]>;
}

/** What the deployment allows (WEBHOOK_ALLOW_LOOPBACK_HTTP; on in the embedded default, off otherwise). */
export interface WebhookSettings {
  allowLoopbackHttp: boolean;
}
