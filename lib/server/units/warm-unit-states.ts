import { getDb } from "../db/client";
import { getUnitStateSnapshot } from "./get-unit-state-snapshot";

/**
 * Server start: take up the kept unit-state snapshot, or compute it, in the background, so the
 * first /units request finds it ready (or awaits the same in-flight work: getUnitStateSnapshot
 * shares it) instead of paying the cold read of every ledger row and attempt itself. Never
 * awaited by startup and never throws: a failure here only means the first request does it.
 */
export function warmUnitStates(delayMs = START_DELAY_MS): void {
  const timer = setTimeout(() => {
    const started = Date.now();
    getUnitStateSnapshot(getDb(), new Date())
      .then((s) => console.log(`reparo: unit states ready (${s.datasets.length} datasets, ${Date.now() - started} ms)`))
      .catch((e: unknown) => console.error(`reparo: warming the unit states failed (the first /units request will compute them): ${(e as Error).message}`))
      // A new hour can make new units expected (open-ended definitions): bring them in before a user asks.
      .finally(() => warmUnitStates(HOUR - (Date.now() % HOUR) + 2_000));
  }, delayMs);
  timer.unref();
}

const HOUR = 3_600_000;
/** After the rest of startup (repair recovery shares the SQLite file): it runs before serving. */
const START_DELAY_MS = 1_500;
