import type { OutputBinding } from "../bindings.js";
import { type SidecarAddress, SidecarHttp } from "./sidecar-http.js";

/** An output binding component invoked through the sidecar (`POST /v1.0/bindings/<name>`). */
export class DaprOutputBinding implements OutputBinding {
  private readonly http: SidecarHttp;

  constructor(
    readonly name: string,
    sidecar: SidecarAddress,
    private readonly timeoutMs = 10_000,
  ) {
    this.http = new SidecarHttp(sidecar);
  }

  invoke(operation: string, data: unknown, metadata: Record<string, string> = {}): Promise<unknown> {
    return this.http.json("POST", `/v1.0/bindings/${encodeURIComponent(this.name)}`, {
      body: { operation, data, metadata },
      timeoutMs: this.timeoutMs,
    });
  }
}
