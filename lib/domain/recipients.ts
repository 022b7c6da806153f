/**
 * Who must know when some nodes of the lineage are wrong (issue "Who must know"): the owners of
 * each node, and the consumers that read it. Seed 001: "at 100x, cross-team closures dominate:
 * the affected tables belong to people who do not know your DAG exists" — so the owners come
 * from the lineage itself, not from whoever opened the incident.
 *
 * A node's owners are the most specific ones anybody gave:
 *   1. its own owner (a task's `owner` fact — declared, dbt, Airflow's DAG owner, the OpenLineage
 *      `ownership` facet —, a dataset's own owner);
 *   2. for a dataset nobody gave one: the owners of the tasks that write it (who built the
 *      number owns it);
 *   3. else its pipeline's owner.
 * Nobody said: no owner — never a default team.
 *
 * Example (the demo): the closure of stg_orders 2026-08-17 holds the weekly finance export (task
 * owner finance-team) and order_features (written by the ML feature task, owner ml-team); the
 * recipients are finance-team, ml-team, orders-team, and the consumers reading those datasets.
 */
import { FACT_SOURCE_LABELS, type FactSource } from "./fact-sources";

/** Where a node's owner was found: on the node itself, on the task writing it, or on its pipeline. */
export type OwnerVia = "node" | "writer" | "pipeline";

export interface OwnerFact {
  readonly name: string;
  /** Where the fact came from (declared, dbt, airflow, openlineage); null when the source was not recorded. */
  readonly source: FactSource | null;
  readonly via: OwnerVia;
}

/** What the catalog says about one node's ownership, as read. */
export interface NodeOwnership {
  readonly nodeId: string;
  /** The node's own owners (a task's owner fact; a dataset's declared or observed owners). */
  readonly own: readonly { readonly name: string; readonly source: FactSource | null }[];
  /** Datasets: the owners of the tasks writing it now (with their sources). */
  readonly writers: readonly { readonly name: string; readonly source: FactSource | null }[];
  /** The owner of the pipeline the node belongs to; null when none is known. */
  readonly pipelineOwner: string | null;
}

/** The owners of one node, most specific first found (see the module comment); [] when nobody said. */
export function ownersOfNode(o: NodeOwnership): OwnerFact[] {
  const named = (list: NodeOwnership["own"], via: OwnerVia): OwnerFact[] =>
    distinct(list.filter((x) => x.name.trim() !== "").map((x) => ({ name: x.name.trim(), source: x.source, via })));
  const own = named(o.own, "node");
  if (own.length > 0) return own;
  const writers = named(o.writers, "writer");
  if (writers.length > 0) return writers;
  const pipeline = o.pipelineOwner?.trim();
  return pipeline ? [{ name: pipeline, source: null, via: "pipeline" }] : [];
}

function distinct(facts: OwnerFact[]): OwnerFact[] {
  const seen = new Set<string>();
  return facts.filter((f) => !seen.has(f.name) && seen.add(f.name));
}

export const CONSUMER_KINDS = ["dashboard", "export_recipient", "model_team", "other"] as const;
export type ConsumerKind = (typeof CONSUMER_KINDS)[number];

/** A team or a consumer's contacts: people, and the channel messages go to (null: none declared). */
export interface ContactOf<C> {
  readonly name: string;
  readonly people: readonly string[];
  readonly channel: C | null;
}

/** A declared consumer: its own lineage node (`consumer:<id>`) and the nodes it reads. */
export interface ConsumerOf<C> extends ContactOf<C> {
  readonly nodeId: string;
  readonly kind: ConsumerKind;
  readonly reads: readonly string[];
}

export interface RecipientOf<C> {
  /** Stable: `owner:<name>`, or a consumer's node id `consumer:<id>`. */
  readonly key: string;
  readonly name: string;
  readonly role: "owner" | "consumer";
  readonly consumerKind?: ConsumerKind;
  readonly people: string[];
  readonly channel: C | null;
  /** Which of the given nodes this recipient owns or reads, in the order given. */
  readonly nodeIds: string[];
}

/**
 * Everyone to tell about `nodeIds`: each owner once (with every given node it owns; its people
 * and channel from the team of that name, when one is declared), then each consumer that reads a
 * given node or is one (with the given nodes it reads, or its own node). Owners by name, then
 * consumers by name, so two calls answer the same list.
 */
export function recipientsOf<C>(
  nodeIds: readonly string[],
  ownersByNode: ReadonlyMap<string, readonly OwnerFact[]>,
  teams: ReadonlyMap<string, ContactOf<C>>,
  consumers: readonly ConsumerOf<C>[],
): RecipientOf<C>[] {
  const given = [...new Set(nodeIds)];
  // A set per owner, in the order given: one team owning a 45,000-node closure was 10⁹ comparisons
  // when each node was searched for in the list so far (docs/lineage.md).
  const owned = new Map<string, Set<string>>();
  for (const nodeId of given)
    for (const owner of ownersByNode.get(nodeId) ?? []) {
      const nodes = owned.get(owner.name);
      if (nodes) nodes.add(nodeId);
      else owned.set(owner.name, new Set([nodeId]));
    }
  const owners = [...owned].map(([name, nodes]): RecipientOf<C> => {
    const team = teams.get(name);
    return { key: `owner:${name}`, name, role: "owner", people: [...(team?.people ?? [])], channel: team?.channel ?? null, nodeIds: [...nodes] };
  });
  const givenSet = new Set(given);
  const reading = consumers.flatMap((c): RecipientOf<C>[] => {
    const reads = new Set(c.reads);
    const nodes = given.filter((n) => reads.has(n));
    if (nodes.length === 0 && !givenSet.has(c.nodeId)) return [];
    return [
      {
        key: c.nodeId,
        name: c.name,
        role: "consumer",
        consumerKind: c.kind,
        people: [...c.people],
        channel: c.channel,
        nodeIds: nodes.length > 0 ? nodes : [c.nodeId],
      },
    ];
  });
  const byName = (a: RecipientOf<C>, b: RecipientOf<C>) => a.name.localeCompare(b.name, "en") || a.key.localeCompare(b.key, "en");
  return [...owners.sort(byName), ...reading.sort(byName)];
}

/** Where an owner was found, in the console's words: "declared", "OpenLineage facet", "owner of the task writing it (dbt manifest)". */
export function describeOwnerFact(f: OwnerFact): string {
  const label = f.source ? FACT_SOURCE_LABELS[f.source] : null;
  if (f.via === "pipeline") return "owner of its pipeline";
  if (f.via === "writer") return `owner of the task writing it${label ? ` (${label})` : ""}`;
  return label ?? "recorded (source not kept)";
}
