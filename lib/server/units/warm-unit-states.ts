import { getDb } from "../repositories/database";
import { whenUnitStatesReady } from "./state-service";
import { log } from "../observability/log";

/**
 * Server start: take up the kept unit states (and apply the changes since), or compute them, in
 * the background, so the first request finds them ready; until then pages answer with the
 * datasets done so far, saying so. Never awaited by startup and never throws: a failure here
 * only means the first request starts the computation.
 */
export function warmUnitStates(delayMs = START_DELAY_MS): void {
  const timer = setTimeout(() => {
    const started = Date.now();
    whenUnitStatesReady(getDb(), new Date())
      .then((s) => log.info(`unit states ready (${s.datasets.length} datasets, ${Date.now() - started} ms)`))
      .catch((e: unknown) => log.error(`warming the unit states failed (the first /units request will compute them): ${(e as Error).message}`))
      // A new hour can make new units expected (open-ended definitions): bring them in before a user asks.
      .finally(() => warmUnitStates(HOUR - (Date.now() % HOUR) + 2_000));
  }, delayMs);
  timer.unref();
}

const HOUR = 3_600_000;
/** After the rest of startup (repair recovery shares the SQLite file): it runs before serving. */
const START_DELAY_MS = 1_500;
