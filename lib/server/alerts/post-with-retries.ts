import { postJsonOnce, type PostOutcome } from "../webhooks/post-json";

export interface RetryOptions {
  maxTries: number;
  /** Delay before try n+1 is baseDelayMs × 2^(n−1): 500 ms, 1 s, 2 s … */
  baseDelayMs: number;
  timeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface TryOutcome extends PostOutcome {
  tryNumber: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxTries: 4, baseDelayMs: 500, timeoutMs: 5_000 };
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POSTs a JSON body until a 2xx answer or the tries run out, backing off exponentially; 4xx other
 * than 408/429 is final (the receiver rejected the body: resending it changes nothing). Every try
 * is reported to `onTry` so the caller records it.
 */
export async function postWithRetries(
  url: string,
  body: string,
  options: RetryOptions,
  onTry: (t: TryOutcome) => Promise<void>,
  secret: string | null = null,
): Promise<TryOutcome> {
  const sleep = options.sleep ?? wait;
  let last: TryOutcome = { tryNumber: 0, ok: false, httpStatus: null, error: "not tried" };
  for (let tryNumber = 1; tryNumber <= options.maxTries; tryNumber++) {
    if (tryNumber > 1) await sleep(options.baseDelayMs * 2 ** (tryNumber - 2));
    last = { tryNumber, ...(await postJsonOnce(url, body, { timeoutMs: options.timeoutMs, secret, userAgent: "reparo-alerts" })) };
    await onTry(last);
    if (last.ok) return last;
    const final = last.httpStatus !== null && last.httpStatus >= 300 && last.httpStatus < 500 && last.httpStatus !== 408 && last.httpStatus !== 429;
    if (final) return last;
  }
  return last;
}
