import { type Logger, pino } from "pino";
import { traceLogFields } from "./http/tracing.js";

/** Structured logs; every line written while a request is handled carries its trace id. */
export function createLogger(level: string, name = "disruption"): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceLogFields,
  });
}
