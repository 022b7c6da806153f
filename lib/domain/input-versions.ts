/**
 * Whether a unit was built from other input versions than its neighbours — compared like with
 * like. Versions that list their inputs, `name@version` joined by commas (as the executor and
 * OpenLineage ingestion record them: "dim_customers@2026-08-18,stg_orders@1"), are compared
 * input by input; free text ("snap-0817") is compared whole.
 *
 * Which inputs neighbours share decides what is compared (seed 000): an input every unit reads
 * whole or as of now (an `all`, `latest` read: a dimension, a current snapshot) should carry one
 * version across neighbours, and a unit built from another is the mismatch worth showing. An
 * input read unit by unit (identity, previous, window: day d reads raw day d) carries a version
 * per unit by nature — snap-0817 for 08-17, snap-0818 for 08-18 — and is never compared.
 *
 * Example: fct_orders reads stg_orders by identity and dim_customers as of now. Its 2026-08-17
 * repair read dim_customers@2026-08-26 while its neighbours read @2026-08-18: a mismatch, whatever
 * stg_orders' per-day versions say.
 */
export interface InputScope {
  /** Names (as versions spell them) of the inputs all units read whole or as of now. */
  readonly shared: ReadonlySet<string>;
  /** Whether the writer reads any input unit by unit: free-text versions then differ per unit by nature. */
  readonly perUnit: boolean;
}

/** Without lineage to tell: every input is taken as shared. */
const ALL_SHARED: InputScope = { shared: new Set(), perUnit: false };

export function inputVersionDiffers(version: string | null, prevailing: string, scope: InputScope = ALL_SHARED): boolean {
  return mismatchedInputs(version, prevailing, scope) !== null;
}

/**
 * The inputs whose version differs from the neighbours' (prevailing) one, or null when none does
 * or the unit's version is not recorded.
 * An empty list means the two differ but not input by input (free text, or nothing in common).
 */
export function mismatchedInputs(version: string | null, prevailing: string, scope: InputScope = ALL_SHARED): string[] | null {
  // A producer that records no input version (Airflow's and dbt's OpenLineage events, mostly) says
  // nothing about it: unknown, not different — the unit's state says so in words instead.
  if (version === null || version === prevailing) return null;
  const [mine, theirs] = [inputsOf(version), prevailingInputs(prevailing)];
  if (!mine || !theirs) return scope.perUnit ? null : [];
  const compared = (input: string) => scope.shared.has(input) || (!scope.perUnit && scope.shared.size === 0);
  const differing: string[] = [];
  let shared = 0;
  for (const [input, v] of mine) {
    const other = theirs.get(input);
    if (other === undefined || !compared(input)) continue;
    if (other !== v) differing.push(input);
    shared++;
  }
  if (differing.length > 0) return differing;
  // Nothing in common to compare: different whole versions only matter when every input is shared.
  return shared === 0 && !scope.perUnit && scope.shared.size === 0 ? [] : null;
}

/**
 * The version most neighbours read of each input (by their latest publish), at a tie the
 * greatest — per input, so per-unit inputs do not make every whole version unique.
 *   prevailingPerInput(["dim@1,raw@a", "dim@1,raw@b", "dim@2,raw@c"]) → "dim@1,raw@c"
 */
export function prevailingPerInput(versions: readonly (string | null)[]): string | null {
  const counts = new Map<string, Map<string, number>>();
  const add = (input: string, v: string) => {
    const byVersion = counts.get(input);
    if (byVersion) byVersion.set(v, (byVersion.get(v) ?? 0) + 1);
    else counts.set(input, new Map([[v, 1]]));
  };
  for (const version of versions) {
    if (!version) continue;
    // One input (most versions): no map of its parts. A full computation reads a million.
    if (!version.includes(",")) {
      const at = version.lastIndexOf("@");
      if (at > 0) add(version.slice(0, at), version.slice(at + 1));
      continue;
    }
    for (const [input, v] of inputsOf(version) ?? []) add(input, v);
  }
  if (counts.size === 0) return null;
  const parts: string[] = [];
  for (const [input, byVersion] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let best = "";
    let bestCount = 0;
    for (const [v, n] of byVersion) if (n > bestCount || (n === bestCount && v > best)) [best, bestCount] = [v, n];
    parts.push(`${input}@${best}`);
  }
  return parts.join(",");
}

// Every unit of a dataset is compared with the same prevailing version: parsed once, not per unit.
let lastPrevailing: { version: string; inputs: ReadonlyMap<string, string> | null } | null = null;
function prevailingInputs(version: string): ReadonlyMap<string, string> | null {
  if (lastPrevailing?.version !== version) lastPrevailing = { version, inputs: inputsOf(version) };
  return lastPrevailing.inputs;
}

function inputsOf(version: string | null): Map<string, string> | null {
  if (!version) return null;
  const out = new Map<string, string>();
  for (const part of version.split(",")) {
    const at = part.lastIndexOf("@");
    if (at <= 0) return null;
    out.set(part.slice(0, at), part.slice(at + 1));
  }
  return out;
}
