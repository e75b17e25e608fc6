import type Router from "@koa/router";
import { type AppChannel, daprError, parseJson, readBody } from "./app-channel.js";
import type { InputBindingComponent } from "./components.js";

/** One `POST /v1.0/bindings/<name>` the app made. */
export interface OutputInvocation {
  name: string;
  operation: string;
  data: unknown;
  metadata: Record<string, string>;
}

/**
 * The bindings API of daprd 1.16: output bindings the app invokes (recorded, answered 204 as a
 * binding that returns no data is), and input bindings delivered to the app. At attach, as daprd
 * does, each input binding's route is probed with OPTIONS and only those the app answers 2xx or
 * 405 are delivered to; a delivery is the raw payload POSTed to the route, acknowledged by a 2xx.
 */
export class StandinBindings {
  private readonly invocations: OutputInvocation[] = [];
  private readonly listening = new Set<string>();

  constructor(
    private readonly channel: AppChannel,
    private readonly inputs: readonly InputBindingComponent[],
  ) {}

  async readInputs(): Promise<void> {
    this.listening.clear();
    for (const input of this.inputs) {
      const answer = await this.channel.callApp("OPTIONS", input.route);
      if (answer.ok || answer.status === 405) this.listening.add(input.name);
    }
  }

  /** Delivers one message of the component `name`; the app's status (2xx: acknowledged). */
  async deliver(name: string, payload: string | object): Promise<number> {
    const input = this.inputs.find((candidate) => candidate.name === name);
    if (!input) throw new Error(`No input binding component ${name}`);
    if (!this.listening.has(name)) throw new Error(`The app does not take deliveries of ${name}`);
    const body = typeof payload === "string" ? payload : JSON.stringify(payload);
    const answer = await this.channel.callApp("POST", input.route, body, "application/json");
    await answer.arrayBuffer();
    return answer.status;
  }

  output(name?: string): OutputInvocation[] {
    return this.invocations.filter((invocation) => name === undefined || invocation.name === name);
  }

  routes(router: Router): void {
    router.post("/bindings/:name", async (ctx) => {
      const body = parseJson(await readBody(ctx.req)) as Partial<OutputInvocation> | undefined;
      if (!body || typeof body !== "object" || typeof body.operation !== "string") {
        daprError(ctx, 400, "ERR_MALFORMED_REQUEST", "operation is required");
        return;
      }
      this.invocations.push({
        name: (ctx.params as { name: string }).name,
        operation: body.operation,
        data: body.data,
        metadata: body.metadata ?? {},
      });
      ctx.status = 204;
    });
  }
}
