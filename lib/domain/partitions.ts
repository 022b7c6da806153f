/**
 * Partition definitions: how the expected units of a dataset are enumerated, and which keys
 * are valid at all.
 *
 * Why a verdict and not a boolean: seed 002 — "invalid keys are distinguished from valid keys
 * that failed". A key the definition rejects (wrong format, before the start, an hour whose
 * offset disagrees with the zone, a deleted dynamic partition) cannot be repaired by
 * re-running; it has to be fixed where the key was generated. So `validateKey` says which.
 *
 * Every definition maps keys ↔ ordinals 0..size-1 so sets of units are ranges (unit-set.ts):
 *   const days = resolvePartitions({ kind: "time", grain: "day", start: "2026-05-18",
 *                                    end: "2026-08-25", timezone: "UTC" });
 *   days.size === 100; validateKey(days, "2026-08-17") → { valid: true, ordinal: 91 }
 *   validateKey(days, "2026-8-17") → { valid: false, code: "bad_format", … }
 */
import { TimeSpace, type TimePartitionDef } from "./time-partitions";
import type { UnitKey } from "./ids";
import { UnitSet, UnitSetBuilder, type KeyNamer } from "./unit-set";

export type { TimeGrain, TimePartitionDef } from "./time-partitions";

export interface StaticPartitionDef {
  readonly kind: "static";
  readonly keys: readonly UnitKey[];
}

/** Keys registered at run time (tenants, files). Deleted keys keep their ordinal so sets stay stable. */
export interface DynamicPartitionDef {
  readonly kind: "dynamic";
  readonly registered: readonly UnitKey[];
  readonly deleted?: readonly UnitKey[];
}

export type DimensionDef = TimePartitionDef | StaticPartitionDef | DynamicPartitionDef;

/**
 * Product of dimensions; key `tenant=42/2026-08-17`: non-time dimensions are spelled
 * `name=value`, a time dimension bare. Ordinals are row-major (last dimension fastest), so
 * one tenant's days are one contiguous range.
 */
export interface MultiPartitionDef {
  readonly kind: "multi";
  readonly dimensions: readonly { readonly name: string; readonly def: DimensionDef }[];
}

/** An unpartitioned dataset: one unit, spelled `*`. */
export interface NoPartitionDef {
  readonly kind: "none";
}

export type PartitionDef = TimePartitionDef | StaticPartitionDef | DynamicPartitionDef | MultiPartitionDef | NoPartitionDef;

export const UNPARTITIONED_KEY = "*";

export type InvalidKeyCode = "bad_format" | "out_of_range" | "wrong_offset" | "nonexistent_time" | "unknown_key" | "deleted_key";

export type KeyVerdict =
  | { readonly valid: true; readonly key: UnitKey; readonly ordinal: number }
  | { readonly valid: false; readonly key: UnitKey; readonly code: InvalidKeyCode; readonly reason: string };

/** A definition resolved at an instant: a finite, enumerable space of units. */
export interface PartitionSpace extends KeyNamer {
  readonly def: PartitionDef;
  readonly size: number;
  /** Units that should exist (all of them, minus deleted dynamic keys). */
  readonly expected: UnitSet;
  /**
   * Expected units that are due: expected to be complete by now, so that their absence is a hole.
   * A time unit is due once closed for the definition's lateness (time-partitions.ts); every
   * other expected unit is due at once.
   */
  readonly due: UnitSet;
  /** Present for time definitions: window geometry for grain-changing mappings. */
  readonly time?: TimeSpace;
  keyAt(ordinal: number): UnitKey;
  validate(key: string): KeyVerdict;
}

export interface ResolveOptions {
  /** Instant (ISO string or epoch ms) bounding open-ended time definitions. */
  readonly asOf?: string | number;
}

function listSpace(def: StaticPartitionDef | DynamicPartitionDef): PartitionSpace {
  const keys = def.kind === "static" ? def.keys : def.registered;
  const index = new Map<string, number>();
  keys.forEach((k, i) => {
    if (index.has(k)) throw new Error(`duplicate partition key "${k}"`);
    index.set(k, i);
  });
  const deleted = new Set(def.kind === "dynamic" ? (def.deleted ?? []) : []);
  const expected = UnitSet.full(keys.length).difference(UnitSet.fromOrdinals([...deleted].flatMap((k) => (index.has(k) ? [index.get(k)!] : []))));
  return {
    def,
    size: keys.length,
    expected,
    due: expected,
    keyAt: (o) => keys[o]!,
    validate(key): KeyVerdict {
      if (deleted.has(key)) {
        return { valid: false, key, code: "deleted_key", reason: `"${key}" was a registered partition and has been deleted` };
      }
      const ordinal = index.get(key);
      if (ordinal === undefined) {
        const what = def.kind === "static" ? "one of the static keys" : "a registered dynamic partition";
        return { valid: false, key, code: "unknown_key", reason: `"${key}" is not ${what}` };
      }
      return { valid: true, key, ordinal };
    },
  };
}

function timeSpace(def: TimePartitionDef, asOfMs: number | undefined): PartitionSpace {
  const time = new TimeSpace(def, asOfMs);
  return {
    def,
    size: time.size,
    expected: UnitSet.full(time.size),
    due: UnitSet.full(time.dueSize),
    time,
    keyAt: (o) => time.keyAt(o),
    validate: (key) => time.validate(key),
  };
}

const noneSpace = (def: NoPartitionDef): PartitionSpace => ({
  def,
  size: 1,
  expected: UnitSet.full(1),
  due: UnitSet.full(1),
  keyAt: () => UNPARTITIONED_KEY,
  validate: (key) =>
    key === UNPARTITIONED_KEY
      ? { valid: true, key, ordinal: 0 }
      : { valid: false, key, code: "unknown_key", reason: `an unpartitioned dataset has one unit, "${UNPARTITIONED_KEY}"` },
});

function multiSpace(def: MultiPartitionDef, asOfMs: number | undefined): PartitionSpace {
  if (def.dimensions.length === 0) throw new Error("a multi-dimensional definition needs dimensions");
  const dims = def.dimensions.map((d) => ({ name: d.name, bare: d.def.kind === "time", space: resolveAt(d.def, asOfMs) }));
  const strides: number[] = [];
  let size = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    strides[i] = size;
    size *= dims[i]!.space.size;
  }
  const spell = (i: number, value: string) => (dims[i]!.bare ? value : `${dims[i]!.name}=${value}`);
  return {
    def,
    size,
    expected: multiExpected(
      dims.map((d) => d.space.expected),
      strides,
      0,
    ),
    due: multiExpected(
      dims.map((d) => d.space.due),
      strides,
      0,
    ),
    keyAt: (o) => dims.map((d, i) => spell(i, d.space.keyAt(Math.floor(o / strides[i]!) % d.space.size))).join("/"),
    validate(key): KeyVerdict {
      const parts = key.split("/");
      if (parts.length !== dims.length) {
        return { valid: false, key, code: "bad_format", reason: `"${key}" needs ${dims.length} parts like "${spell(0, "…")}/…"` };
      }
      let ordinal = 0;
      for (let i = 0; i < dims.length; i++) {
        const dim = dims[i]!;
        const part = parts[i]!;
        const prefix = dim.bare ? "" : `${dim.name}=`;
        if (!part.startsWith(prefix)) return { valid: false, key, code: "bad_format", reason: `"${key}": part ${i + 1} should start with "${prefix}"` };
        const verdict = dim.space.validate(part.slice(prefix.length));
        if (!verdict.valid) return { ...verdict, key, reason: `dimension ${dim.name}: ${verdict.reason}` };
        ordinal += verdict.ordinal * strides[i]!;
      }
      return { valid: true, key: this.keyAt(ordinal), ordinal };
    },
  };
}

/** The product of per-dimension unit sets, as ordinals of the multi-dimensional space. */
function multiExpected(sets: UnitSet[], strides: number[], i: number): UnitSet {
  const set = sets[i]!;
  if (i === sets.length - 1) return set;
  const inner = multiExpected(sets, strides, i + 1);
  const builder = new UnitSetBuilder();
  for (const o of set) inner.forEachRange((lo, hi) => builder.add(lo + o * strides[i]!, hi + o * strides[i]!));
  return builder.build();
}

function resolveAt(def: PartitionDef, asOfMs: number | undefined): PartitionSpace {
  switch (def.kind) {
    case "time":
      return timeSpace(def, asOfMs);
    case "static":
    case "dynamic":
      return listSpace(def);
    case "multi":
      return multiSpace(def, asOfMs);
    case "none":
      return noneSpace(def);
  }
}

export function resolvePartitions(def: PartitionDef, options: ResolveOptions = {}): PartitionSpace {
  const asOf = options.asOf;
  const asOfMs = asOf === undefined ? undefined : typeof asOf === "number" ? asOf : Date.parse(asOf);
  if (asOfMs !== undefined && Number.isNaN(asOfMs)) throw new Error(`asOf is not an instant: ${String(asOf)}`);
  return resolveAt(def, asOfMs);
}

export function validateKey(space: PartitionSpace, key: string): KeyVerdict {
  return space.validate(key);
}

/**
 * The expected units between two keys (inclusive; either bound may be omitted). Throws with
 * the verdict's reason when a bound is itself invalid — a range cannot start at a bad key.
 *   expectedUnits(days, "2026-08-01", "2026-08-25").size === 25
 */
export function expectedUnits(space: PartitionSpace, from?: UnitKey, to?: UnitKey): UnitSet {
  const bound = (key: UnitKey | undefined, fallback: number) => {
    if (key === undefined) return fallback;
    const verdict = space.validate(key);
    if (!verdict.valid) throw new RangeError(verdict.reason);
    return verdict.ordinal;
  };
  return space.expected.intersect(UnitSet.range(bound(from, 0), bound(to, space.size - 1)));
}

/** Keys of a set, lazily: for display and exports, never for set algebra. */
export function* keysOf(space: PartitionSpace, units: UnitSet): Generator<UnitKey> {
  for (const o of units) yield space.keyAt(o);
}

/** Structural equality: two datasets with equal definitions share ordinals (lateness says when units are due, not which exist). */
export function sameDefinition(a: PartitionDef, b: PartitionDef): boolean {
  return JSON.stringify(withoutLateness(a)) === JSON.stringify(withoutLateness(b));
}

function withoutLateness(def: PartitionDef): PartitionDef {
  if (def.kind === "time")
    return { kind: def.kind, grain: def.grain, start: def.start, ...(def.end === undefined ? {} : { end: def.end }), timezone: def.timezone };
  if (def.kind === "multi") return { kind: "multi", dimensions: def.dimensions.map((d) => ({ name: d.name, def: withoutLateness(d.def) as typeof d.def })) };
  return def;
}
