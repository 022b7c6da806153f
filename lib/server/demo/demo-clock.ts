import type { Clock } from "../executor/types";

const MINUTE = 60_000;

/**
 * A clock for one demo run that starts at `start`: each wave of the run's dependency order
 * takes five minutes, a try lasts one minute and a retry starts 100 s after the previous try.
 * Times come from the event, not from when a concurrent write finished, so every load of the
 * demo records the same timestamps.
 */
export function demoClock(start: Date): Clock {
  const t0 = start.getTime();
  return (event) => {
    switch (event.phase) {
      case "run-start":
        return new Date(t0);
      case "run-end":
        return new Date(t0 + event.waves * 5 * MINUTE);
      default: {
        const begin = t0 + event.wave * 5 * MINUTE + 5_000 + (event.tryNumber - 1) * 100_000;
        return new Date(event.phase === "attempt-start" ? begin : begin + MINUTE);
      }
    }
  };
}
