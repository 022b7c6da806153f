import type { StatesStatus } from "@/lib/contracts/units";

/**
 * Says when unit states on screen are not the whole or the latest picture: on a first start the
 * server answers with the datasets computed so far; after a change it cannot apply incrementally it
 * answers with the previous states while it recomputes; with deferred folding, events accepted are
 * not written into the ledger yet. Nothing is shown when the states are current.
 */
export function StatesNotice({ states }: { states: StatesStatus }) {
  const behind = states.unfolded ? <UnfoldedNotice events={states.unfolded.events} oldestSeconds={states.unfolded.oldestSeconds} /> : null;
  if (states.computing) {
    const { done, total } = states.computing;
    return (
      <div className="notice" role="status" aria-live="polite">
        <strong>Computing unit states:</strong> {done} of {total} datasets so far. Counts and findings below cover only those; the page updates itself until all
        are in.
      </div>
    );
  }
  if (states.refreshing) {
    return (
      <div className="notice" role="status" aria-live="polite">
        <strong>Refreshing unit states.</strong> These are the states before the latest ledger changes; the page updates itself when the recomputation finishes.
      </div>
    );
  }
  return behind;
}

function UnfoldedNotice({ events, oldestSeconds }: { events: number; oldestSeconds: number }) {
  return (
    <div className="notice" role="status" aria-live="polite">
      <strong>
        {events.toLocaleString("en-US")} accepted event{events === 1 ? "" : "s"} not in the ledger yet
      </strong>{" "}
      (the oldest waited {oldestSeconds} s). Runs and publishes they report are written in a moment; the page updates itself.
    </div>
  );
}
