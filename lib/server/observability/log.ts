import pino from "pino";
import { processSingleton } from "../runtime/process-singleton";

/**
 * Structured JSON logs, one object per line on stdout (pino): what a log pipeline behind several
 * console instances can parse and join on `reqId` and `instance`. REPARO_LOG_LEVEL (default
 * info; `silent` turns the request log off).
 */
export const log: pino.Logger = processSingleton("log", () =>
  pino({
    level: process.env.REPARO_LOG_LEVEL ?? "info",
    base: { service: "reparo", pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  }),
);
