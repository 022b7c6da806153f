/**
 * Partition mappings on "task reads dataset" edges: which upstream units a downstream unit
 * reads. Compiled once per edge into two range functions that are exact converses:
 *   readsOf(taskUnits)      the dataset units those task units read      (upstream closure)
 *   readersOf(datasetUnits) the task units that read any of those units  (downstream closure)
 *
 * Why ranges: every time mapping here is monotone, so a range maps to a range by its
 * endpoints. Day → ISO-week roll-up of days 2026-08-17..2026-08-25 is weeks W34..W35,
 * computed from the two ends, never by visiting the nine days.
 */
import type { UnitKey } from "./ids";
import { sameDefinition, type PartitionSpace } from "./partitions";
import type { TimeSpace } from "./time-partitions";
import { UnitSet, UnitSetBuilder } from "./unit-set";

export type PartitionMapping =
  /** Unit d reads the same key. */
  | { readonly type: "identity" }
  /** Unit d reads d-n: a running balance reading yesterday's balance (its own, or upstream's). */
  | { readonly type: "previous"; readonly n: number }
  /** Unit d reads the last k units d-k+1..d (a 7-day rolling average). */
  | { readonly type: "window"; readonly k: number }
  /** Every unit reads every upstream unit (a full-table read). */
  | { readonly type: "all" }
  /** As-of-now join: every unit reads the upstream's current (latest) unit. */
  | { readonly type: "latest" }
  /** Time grain change by window overlap: day → week/month roll-up, month → day fan-out. */
  | { readonly type: "grain" }
  /** Explicit table: upstream key → the downstream keys that read it. */
  | { readonly type: "static"; readonly table: Readonly<Record<UnitKey, readonly UnitKey[]>> };

export interface CompiledMapping {
  readsOf(taskUnits: UnitSet): UnitSet;
  readersOf(datasetUnits: UnitSet): UnitSet;
}

/** d reads [d+a, d+b]: identity, previous and window are all bands after key alignment. */
function band(a: number, b: number, up: PartitionSpace, down: PartitionSpace): CompiledMapping {
  const map = (set: UnitSet, lo: number, hi: number, n: number) => {
    // Identity between aligned spaces (the commonest read) keeps the set itself, clipped.
    if (lo === 0 && hi === 0) return set.clip(n);
    const builder = new UnitSetBuilder();
    set.forEachRange((l, h) => builder.add(Math.max(0, l + lo), Math.min(n - 1, h + hi)));
    return builder.build();
  };
  return {
    readsOf: (s) => map(s, a, b, up.size),
    readersOf: (s) => map(s, -b, -a, down.size),
  };
}

/** How far the upstream ordinals are shifted from the downstream ones for the same key. */
function alignment(up: PartitionSpace, down: PartitionSpace): number | null {
  if (up.time && down.time && up.time.grain === down.time.grain) {
    if (up.time.grain === "hour") return Math.round(down.time.startAbs - up.time.startAbs);
    return down.time.startAbs - up.time.startAbs;
  }
  return sameDefinition(up.def, down.def) ? 0 : null;
}

function overlapRange(from: TimeSpace, to: TimeSpace, lo: number, hi: number): [number, number] {
  if (from.isCalendar() && to.isCalendar() && from.zone === to.zone) {
    return [to.ordinalAtLocalDay(from.localDaySpan(lo)[0]), to.ordinalAtLocalDay(from.localDaySpan(hi)[1] - 1)];
  }
  return [to.ordinalAtMs(from.windowStartMs(lo)), to.ordinalAtMs(from.windowStartMs(hi + 1) - 1)];
}

function overlap(up: TimeSpace, down: TimeSpace): CompiledMapping {
  const map = (set: UnitSet, from: TimeSpace, to: TimeSpace) => {
    const builder = new UnitSetBuilder();
    set.forEachRange((l, h) => {
      const [lo, hi] = overlapRange(from, to, l, h);
      builder.add(Math.max(0, lo), Math.min(to.size - 1, hi));
    });
    return builder.build();
  };
  return { readsOf: (s) => map(s, down, up), readersOf: (s) => map(s, up, down) };
}

/** Unit-by-unit table; only for small explicit spaces (static lists). */
function table(pairs: readonly (readonly [up: number, down: number])[]): CompiledMapping {
  const readsOf = new Map<number, number[]>();
  const readersOf = new Map<number, number[]>();
  for (const [u, d] of pairs) {
    readsOf.set(d, [...(readsOf.get(d) ?? []), u]);
    readersOf.set(u, [...(readersOf.get(u) ?? []), d]);
  }
  const map = (set: UnitSet, index: Map<number, number[]>) => {
    const out: number[] = [];
    for (const o of set) out.push(...(index.get(o) ?? []));
    return UnitSet.fromOrdinals(out);
  };
  return { readsOf: (s) => map(s, readsOf), readersOf: (s) => map(s, readersOf) };
}

function keyTable(mapping: Extract<PartitionMapping, { type: "static" }>, up: PartitionSpace, down: PartitionSpace) {
  const pairs: [number, number][] = [];
  for (const [upKey, downKeys] of Object.entries(mapping.table)) {
    const u = up.validate(upKey);
    if (!u.valid) throw new Error(`static mapping: upstream ${u.reason}`);
    for (const downKey of downKeys) {
      const d = down.validate(downKey);
      if (!d.valid) throw new Error(`static mapping: downstream ${d.reason}`);
      pairs.push([u.ordinal, d.ordinal]);
    }
  }
  return table(pairs);
}

/** Identity between two different key lists (static/dynamic): match by key. */
function identityByKey(up: PartitionSpace, down: PartitionSpace): CompiledMapping | null {
  if (up.time || down.time || up.def.kind === "multi" || down.def.kind === "multi") return null;
  const pairs: [number, number][] = [];
  for (let d = 0; d < down.size; d++) {
    const u = up.validate(down.keyAt(d));
    if (u.valid) pairs.push([u.ordinal, d]);
  }
  return table(pairs);
}

/**
 * Compiles a mapping between an upstream dataset space and a downstream task space.
 * Throws (with the reason) when the mapping cannot relate the two definitions.
 */
export function compileMapping(mapping: PartitionMapping, up: PartitionSpace, down: PartitionSpace): CompiledMapping {
  switch (mapping.type) {
    case "all":
      return {
        readsOf: (s) => (s.isEmpty ? UnitSet.EMPTY : up.expected),
        readersOf: (s) => (s.intersects(up.expected) ? UnitSet.full(down.size) : UnitSet.EMPTY),
      };
    case "latest": {
      const latest = up.expected.max;
      const current = latest === undefined ? UnitSet.EMPTY : UnitSet.of(latest);
      return {
        readsOf: (s) => (s.isEmpty ? UnitSet.EMPTY : current),
        readersOf: (s) => (s.intersects(current) ? UnitSet.full(down.size) : UnitSet.EMPTY),
      };
    }
    case "grain":
      if (!up.time || !down.time) throw new Error("a grain mapping needs time partitions on both sides");
      return overlap(up.time, down.time);
    case "static":
      return keyTable(mapping, up, down);
    default:
      return compileBand(mapping, up, down);
  }
}

function compileBand(
  mapping: Extract<PartitionMapping, { type: "identity" | "previous" | "window" }>,
  up: PartitionSpace,
  down: PartitionSpace,
): CompiledMapping {
  const s = alignment(up, down);
  if (s === null) {
    const byKey = mapping.type === "identity" ? identityByKey(up, down) : null;
    if (byKey) return byKey;
    throw new Error(`${mapping.type} needs the same partitioning on both sides (${up.def.kind} vs ${down.def.kind}); use grain, static or all`);
  }
  if (mapping.type === "identity") return band(s, s, up, down);
  if (mapping.type === "previous") {
    if (!Number.isInteger(mapping.n) || mapping.n < 1) throw new Error(`previous(n) needs n ≥ 1, got ${mapping.n}`);
    return band(s - mapping.n, s - mapping.n, up, down);
  }
  if (!Number.isInteger(mapping.k) || mapping.k < 1) throw new Error(`window(k) needs k ≥ 1, got ${mapping.k}`);
  return band(s - mapping.k + 1, s, up, down);
}

export function describeMapping(mapping: PartitionMapping): string {
  switch (mapping.type) {
    case "previous":
      return `previous(${mapping.n})`;
    case "window":
      return `window(${mapping.k})`;
    case "latest":
      return "latest (as-of-now)";
    default:
      return mapping.type;
  }
}
