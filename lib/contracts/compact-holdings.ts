import { z } from "zod";
import { ClosureQuerySchema, HoldingSchema, HoldingsSchema, type Holding, type Holdings } from "./lineage";

/**
 * GET /api/v1/lineage-graph/holdings?form=compact: the same holdings with each node id once and
 * each distinct holding (kind, units, words, detail) once, referred to by index — what the
 * lineage page asks for. A wide closure of the 50,000-node lineage is 45,000 nodes that mostly
 * hold the same "never ran" year: written out, 12 MB, asked again every 10 s while the unit
 * states are computed (docs/lineage.md). Expanded back by `expandHoldings`, so every screen
 * reads one shape.
 */
export const CompactHoldingsSchema = z.object({
  form: z.literal("compact"),
  asOf: HoldingsSchema.shape.asOf,
  failedAt: HoldingsSchema.shape.failedAt,
  statesComputing: HoldingsSchema.shape.statesComputing,
  ids: z.array(z.string()),
  holdings: z.array(HoldingSchema),
  /** Per node, in the order of `ids`: its holdings (indices into `holdings`), and 1 when its suspect units are not known yet. */
  nodes: z.array(z.tuple([z.array(z.number().int().nonnegative()), z.union([z.literal(0), z.literal(1)])])),
});
export type CompactHoldings = z.infer<typeof CompactHoldingsSchema>;

/** GET …/holdings' query: the closure's, and `form=compact` for the compact answer (default `full`). */
export const HoldingsAnswerQuerySchema = ClosureQuerySchema.extend({ form: z.enum(["full", "compact"]).default("full") });

/** The holdings with each id and distinct holding once (nodes holding the same share its entry). */
export function compactHoldings(answer: Holdings): CompactHoldings {
  const seen = new Map<string, number>();
  const holdings: Holding[] = [];
  const indexOf = (h: Holding) => {
    const key = JSON.stringify([h.kind, h.units, h.unitsText, h.detail]);
    let i = seen.get(key);
    if (i === undefined) {
      seen.set(key, (i = holdings.length));
      holdings.push(h);
    }
    return i;
  };
  return {
    form: "compact",
    asOf: answer.asOf,
    failedAt: answer.failedAt,
    statesComputing: answer.statesComputing,
    ids: answer.nodes.map((n) => n.nodeId),
    holdings,
    nodes: answer.nodes.map((n) => [n.holdings.map(indexOf), n.suspectUnknown ? 1 : 0]),
  };
}

/** The full answer back (`HoldingsSchema`'s shape): nodes holding the same share its object. */
export function expandHoldings(compact: CompactHoldings): Holdings {
  if (compact.nodes.length !== compact.ids.length)
    throw new Error(`the compact holdings name ${compact.ids.length} nodes but describe ${compact.nodes.length}`);
  const nodes = compact.nodes.map(([held, unknown], i): Holdings["nodes"][number] => {
    const holdings = held.map((h) => {
      const holding = compact.holdings[h];
      if (holding === undefined) throw new Error(`the compact holdings' node ${i} refers to holding ${h} of ${compact.holdings.length}`);
      return holding;
    });
    const nodeId = compact.ids[i]!;
    return unknown === 1 ? { nodeId, holdings, suspectUnknown: true } : { nodeId, holdings };
  });
  return { asOf: compact.asOf, failedAt: compact.failedAt, statesComputing: compact.statesComputing, nodes };
}
