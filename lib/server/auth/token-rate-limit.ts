import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { HttpError } from "../http/errors";
import type { Actor } from "./roles";

/**
 * Per-token request budget on each console instance (rate-limiter-flexible): REPARO_TOKEN_RATE
 * requests per minute (default 6,000 — 100 a second, far above an orchestrator's event rate, far
 * below what stalls the server). Over it: 429 with Retry-After, so a runaway producer slows down
 * instead of taking the console with it.
 */
let limiter: { per: number; l: RateLimiterMemory } | null = null;

function tokenLimiter(): RateLimiterMemory {
  const per = Number(process.env.REPARO_TOKEN_RATE ?? 6_000);
  if (limiter?.per !== per) limiter = { per, l: new RateLimiterMemory({ points: per, duration: 60 }) };
  return limiter.l;
}

export class TooManyRequestsError extends HttpError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(429, "too_many_requests", message);
  }
}

export async function spendTokenBudget(actor: Actor): Promise<void> {
  if (actor.source !== "token") return;
  try {
    await tokenLimiter().consume(actor.id, 1);
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    const seconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    throw new TooManyRequestsError(
      seconds,
      `${actor.id} sent more than ${tokenLimiter().points} requests in a minute: retry in ${seconds} s (REPARO_TOKEN_RATE)`,
    );
  }
}
