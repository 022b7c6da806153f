import type { StatesStatus } from "@/lib/contracts/units";

/**
 * How often a screen built on unit states asks again: every 2 s while the server is still
 * computing them (the answer is partial) or refreshing them (the answer is older than the ledger),
 * otherwise at the screen's own pace.
 */
export function statesRefetchInterval(settled: number) {
  return (q: { state: { data?: { states: StatesStatus } } }) => {
    const s = q.state.data?.states;
    return s && (s.computing || s.refreshing) ? 2000 : settled;
  };
}
