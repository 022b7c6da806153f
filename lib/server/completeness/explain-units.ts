import type { Completeness, CompletenessReason } from "@/lib/contracts/completeness";
import { plainVerdict } from "@/lib/domain/plain-verdict";
import { stateRank } from "@/lib/domain/unit-state";

type UnitVerdict = Completeness["byUnit"][number];

const UNBUILT = new Set(["missing", "failed", "blocked"]);
const ADJECTIVE: Record<string, string> = {
  duplicate: "duplicated",
  divergent: "divergent",
  empty: "empty",
  stale: "stale",
  missing: "missing",
  failed: "failed",
  blocked: "blocked",
  known_bad: "known-bad",
  skipped: "skipped",
};

/**
 * The reasons grouped by unit key, each with a one-line headline an analyst can read aloud:
 * "never built: stg_orders failed" when the unit has no publish because an upstream unit failed,
 * "built on duplicated upstream rows: stg_orders" when the unit itself looks healthy but what it
 * was built from is not. Keys group across datasets, which is exact for same-key (identity)
 * lineage; other keys stay listed under their upstream dataset.
 */
export function explainUnits(reasons: CompletenessReason[], target: string): UnitVerdict[] {
  const byKey = new Map<string, CompletenessReason[]>();
  for (const r of reasons) byKey.set(r.unitKey, [...(byKey.get(r.unitKey) ?? []), r]);
  return [...byKey]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([unitKey, rs]) => ({ unitKey, headline: headline(rs), plain: plain(target, unitKey, rs), reasons: rs }));
}

function plain(target: string, unitKey: string, rs: CompletenessReason[]): UnitVerdict["plain"] {
  const v = plainVerdict(target, unitKey, rs);
  const href = (id: string) => `/incidents/${encodeURIComponent(id)}`;
  return {
    sentence: v.sentence,
    effect: v.effect,
    onIt: v.onIt.map((i) => ({ ...i, href: href(i.id) })),
    openIncidentHref: v.openIncident ? `/incidents/new?${new URLSearchParams({ node: v.openIncident.node, units: v.openIncident.unitKey })}` : null,
  };
}

function headline(rs: CompletenessReason[]): string {
  const own = rs.find((r) => r.role === "target");
  const upstream = rs.filter((r) => r.role === "upstream").sort((a, b) => stateRank(a.state) - stateRank(b.state));
  const failedUp = upstream.filter((r) => r.state === "failed");
  if (own?.gap) return `${own.state === "known_bad" ? "known-bad" : "skipped"}: a gap, not a number`;
  if (own && UNBUILT.has(own.state)) {
    if (failedUp.length > 0) return `never built: ${names(failedUp)} failed`;
    return own.state === "failed" ? "never built: its own task failed" : "never built";
  }
  if (!own && upstream.length === 0) return "incomplete";
  // A suspect unit is healthy itself: the headline names the root cause upstream, not the chain.
  const rootCause = upstream.filter((r) => r.state !== "suspect");
  if (own && !(own.state === "suspect" && rootCause.length > 0)) return `${ADJECTIVE[own.state] ?? own.state}: ${own.reason}`;
  const worst = (rootCause.length > 0 ? rootCause : upstream)[0]!;
  if (UNBUILT.has(worst.state)) return `upstream ${worst.state}: ${names(upstream.filter((r) => r.state === worst.state))}`;
  return `built on ${ADJECTIVE[worst.state] ?? worst.state} upstream rows: ${names(upstream.filter((r) => r.state === worst.state))}`;
}

function names(rs: CompletenessReason[]): string {
  return [...new Set(rs.map((r) => r.datasetName))].join(", ");
}
