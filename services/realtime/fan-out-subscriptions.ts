import type { Subscription } from "../../src/runtime/event-bus.js";
import type { ModuleContext } from "../module.js";
import { RealtimeHub } from "./realtime-hub.js";

/**
 * Every event of every tenant topic goes to this process's operator connections (spec 4.1: each
 * API replica fans out what it receives). In the distributed runtime each replica must receive
 * every event, so this subscription's pub/sub component needs a consumer group per replica.
 */
export function realtimeSubscriptions(
  context: () => ModuleContext,
  topics: readonly string[],
): Subscription[] {
  return topics.map(
    (topic): Subscription => ({
      name: `realtime.fan-out.${topic}`,
      topic,
      handler: async (event) => {
        try {
          await context().container.resolve(RealtimeHub).fanOut(event);
          return "SUCCESS";
        } catch (error) {
          context().logger.warn({ err: error, event: event.id }, "operator channel fan-out failed; retrying");
          return "RETRY";
        }
      },
    }),
  );
}
