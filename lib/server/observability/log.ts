import pino from "pino";

/**
 * Structured JSON logs, one object per line on stdout (pino): what a log pipeline behind several
 * console instances can parse and join on `reqId` and `instance`. REPARO_LOG_LEVEL (default
 * info; `silent` turns the request log off).
 */
const holder = globalThis as unknown as { __reparoLog?: pino.Logger };
export const log: pino.Logger = (holder.__reparoLog ??= pino({
  level: process.env.REPARO_LOG_LEVEL ?? "info",
  base: { service: "reparo", pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
}));
