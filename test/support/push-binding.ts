import { caseUrnFor } from "../../src/domain/case.js";
import { type TestPlatform, startTestPlatform } from "./platform.js";

const ZX = "urn:airline:ZX";

export interface PushBindingPlatform {
  t: TestPlatform;
  skyhub: string;
  supervisor: string;
}

/**
 * The platform with its disruption-push input binding on `binding` (a broker URL) and `queue` (a
 * queue or topic), acting as skyhub-zx, without demo policies or demand on intake: only the pushes.
 */
export async function startPushBindingPlatform(
  binding: string,
  queue: string,
  env: Record<string, string> = {},
): Promise<PushBindingPlatform> {
  const t = await startTestPlatform({
    env: {
      DISRUPTION_PUSH_BINDING: binding,
      DISRUPTION_PUSH_QUEUE: queue,
      DISRUPTION_PUSH_CLIENT_ID: "skyhub-zx",
      DEMO_POLICIES: "off",
      DEMAND_ON_INTAKE: "off",
      ...env,
    },
  });
  return {
    t,
    skyhub: await t.partnerToken("skyhub-zx"),
    supervisor: await t.operatorToken("supervisor@zx.demo"),
  };
}

/** Waits until the case of `externalEventId` exists (a binding handles its messages in order). */
export async function caseOpened(p: PushBindingPlatform, externalEventId: string): Promise<string> {
  const caseUrn = caseUrnFor(ZX, externalEventId);
  const deadline = Date.now() + 15_000;
  while (
    (await p.t.call("GET", `/partner/v1/cases/${encodeURIComponent(caseUrn)}`, p.skyhub)).status !== 200
  ) {
    if (Date.now() > deadline) throw new Error(`no case for ${externalEventId}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return caseUrn;
}
