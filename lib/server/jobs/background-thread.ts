import { setPriority } from "node:os";

/**
 * For a background worker thread (the first unit-state computation, deferred folding): background
 * work yields to the pages. On Linux a thread has its own nice value, and this lowers this thread's
 * alone, so when the cores are busy the main thread (the requests) runs first. (Elsewhere it would
 * lower the whole process's: left as it is.)
 */
export function yieldToRequests(): void {
  if (process.platform !== "linux") return;
  try {
    setPriority(10);
  } catch {
    // not permitted here: the thread runs at the process's priority
  }
}
