import { z } from "zod";
import { KeyRangeSchema } from "./overview";
import { ClosureQuerySchema, DirectionSchema, NodeKindSchema, type Closure, type ClosureNode } from "./lineage";

/**
 * GET /api/v1/closure?form=compact: the same closure with every node id, unit set and reason
 * spelled once and referred to by index — what the lineage page asks for. A click on a 50,000-node
 * lineage reached 45,466 nodes, and the full answer (each node's units, words and `via` ids
 * written out) was 14 MB: seconds to serialise, parse and check (docs/lineage.md). Expanded back
 * into the full answer by `expandClosure`, so every screen reads one shape.
 */
export const CompactClosureSchema = z.object({
  form: z.literal("compact"),
  asOf: z.string(),
  direction: DirectionSchema,
  ids: z.array(z.string()),
  /** Each node's name, in the order of `ids`. */
  names: z.array(z.string()),
  unitSets: z.array(z.object({ units: z.array(KeyRangeSchema).nullable(), unitCount: z.number().int(), unitsText: z.string() })),
  reasons: z.array(z.string()),
  /** Per node, in the order of `ids`: [kind, unit set, depth, seed (0/1), via ids, [via id, reason][] over degraded edges]. */
  nodes: z.array(
    z.tuple([
      z.number().int(),
      z.number().int(),
      z.number().int(),
      z.number().int(),
      z.array(z.number().int()),
      z.array(z.tuple([z.number().int(), z.number().int()])),
    ]),
  ),
  waves: z.array(z.array(z.number().int())),
});
export type CompactClosure = z.infer<typeof CompactClosureSchema>;

/** GET /api/v1/closure's query: `form=compact` asks for the compact answer (default `full`). */
export const ClosureAnswerQuerySchema = ClosureQuerySchema.extend({ form: z.enum(["full", "compact"]).default("full") });

const KINDS = NodeKindSchema.options;

/** The closure with each id, unit set and reason once (two nodes sharing a unit set share its entry). */
export function compactClosure(closure: Closure): CompactClosure {
  const ids = closure.nodes.map((n) => n.nodeId);
  const at = new Map(ids.map((id, i) => [id, i]));
  const indexOf = (id: string) => {
    const i = at.get(id);
    if (i === undefined) throw new Error(`compactClosure: ${id} is reached from but not in the closure`);
    return i;
  };
  const sets = new Map<string, number>();
  const unitSets: CompactClosure["unitSets"] = [];
  const reasons = new Map<string, number>();
  const said = (reason: string) => {
    let i = reasons.get(reason);
    if (i === undefined) reasons.set(reason, (i = reasons.size));
    return i;
  };
  const nodes = closure.nodes.map((n): CompactClosure["nodes"][number] => {
    const key = JSON.stringify([n.units, n.unitCount, n.unitsText]);
    let set = sets.get(key);
    if (set === undefined) {
      sets.set(key, (set = unitSets.length));
      unitSets.push({ units: n.units, unitCount: n.unitCount, unitsText: n.unitsText });
    }
    return [KINDS.indexOf(n.kind), set, n.depth, n.seed ? 1 : 0, n.via.map(indexOf), n.degradedVia.map((d) => [indexOf(d.nodeId), said(d.reason)])];
  });
  return {
    form: "compact",
    asOf: closure.asOf,
    direction: closure.direction,
    ids,
    names: closure.nodes.map((n) => n.name),
    unitSets,
    reasons: [...reasons.keys()],
    nodes,
    waves: closure.waves.map((w) => w.map(indexOf)),
  };
}

/** The full answer back (`GET /api/v1/closure`'s shape): nodes of one unit set share its arrays. */
export function expandClosure(compact: CompactClosure): Closure {
  const { ids, names, unitSets, reasons } = compact;
  const idAt = (i: number) => {
    const id = ids[i];
    if (id === undefined) throw new Error(`the compact closure refers to node ${i} of ${ids.length}`);
    return id;
  };
  const nodes = compact.nodes.map(([kind, set, depth, seed, via, degraded], i): ClosureNode => {
    const [units, name] = [unitSets[set], names[i]];
    if (units === undefined || name === undefined || KINDS[kind] === undefined)
      throw new Error(`the compact closure's node ${i} refers to what it does not hold`);
    return {
      nodeId: idAt(i),
      kind: KINDS[kind],
      name,
      units: units.units,
      unitCount: units.unitCount,
      unitsText: units.unitsText,
      via: via.map(idAt),
      degradedVia: degraded.map(([v, r]) => ({ nodeId: idAt(v), reason: reasons[r] ?? `reason ${r} missing from the answer` })),
      seed: seed === 1,
      depth,
    };
  });
  return { asOf: compact.asOf, direction: compact.direction, nodes, waves: compact.waves.map((w) => w.map(idAt)) };
}
