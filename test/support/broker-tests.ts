import { describe, it } from "vitest";

/**
 * Whether tests against a broker running on this machine can run (`probe` connects and lets go).
 * An unreachable broker skips them with a printed reason, except under REQUIRE_BROKERS=1 (CI),
 * where a failing test stands in for them.
 */
export async function brokerForTests(
  suite: string,
  broker: string,
  url: string,
  probe: () => Promise<void>,
): Promise<{ reachable: boolean; reason?: string }> {
  try {
    await probe();
    return { reachable: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.REQUIRE_BROKERS === "1") {
      describe(suite, () => {
        it(`reaches ${broker}, which REQUIRE_BROKERS=1 demands`, () => {
          throw new Error(`${broker} at ${url} is unreachable: ${reason}`);
        });
      });
    } else {
      console.warn(`${suite} tests skipped: ${broker} at ${url} is unreachable (${reason})`);
    }
    return { reachable: false, reason };
  }
}
