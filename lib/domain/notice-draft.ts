/**
 * The communication step's message (seed 001: "the recovery has a communication step whether or not
 * anyone plans for it"): what one owner or consumer is told about an incident, drafted from its
 * facts and nothing else. Pure: the server gathers the facts (closure, deliveries, plan, severity),
 * this says them in the recipient's words.
 *
 * Only the units of the recipient's own nodes are named — a consumer of the finance export is told
 * about the export, never about another namespace's tables it may not read — and no address, token
 * or URL of a channel ever enters the text (the acknowledgement link is added by the sender).
 *
 * Worked example (the demo: stg_orders 2026-08-17 failed; the finance team owns the weekly export):
 *
 *   raw_orders -> stg_orders -> fct_orders -> revenue_daily -> weekly_revenue_export (sent to the finance ledger)
 *                                          \-> build_order_features -> order_features
 *
 *   draftNotice(facts, { name: "finance-team", role: "owner", nodeIds: ["dataset:finance:weekly_revenue_export"] })
 *   → [Reparo] Incident opened: stg_orders 2026-08-17 failed
 *     finance-team: units you own are affected.
 *     - weekly_revenue_export 2026-W34 (already sent to finance-ledger on 2026-08-24 06:00 UTC)
 *     Since: 2026-08-17 02:10 UTC (detected).
 *     Being done: not planned yet — the commander is scoping the repair.
 *     ETA: no ETA until a plan is confirmed.
 */

export type NoticeEvent = "opened" | "plan_confirmed" | "resolved" | "abandoned" | "manual";
export const NOTICE_EVENTS = ["opened", "plan_confirmed", "resolved", "abandoned", "manual"] as const;

/** One node of the incident's closure and the units of it the incident reaches, as key ranges. */
export interface AffectedNode {
  nodeId: string;
  name: string;
  units: [string, string][];
}

/** A unit already delivered outside the platform (an export file sent), reached by the closure. */
export interface DeliveryFact {
  /** The node the delivery is shown on: the delivering task's node or the dataset it writes. */
  nodeIds: string[];
  unitKey: string;
  destination: string;
  sentAt: Date;
}

export interface NoticePlan {
  strategy: string;
  waves: number;
  unitsRecomputed: number;
  /** When the repair should be done, from the plan's cost and how long units took so far; null when unknown. */
  etaAt: Date | null;
  /** How the ETA was estimated, or why there is none (plan-eta.ts). */
  etaBasis?: string | null;
}

export interface NoticeFacts {
  title: string;
  event: NoticeEvent;
  detectedAt: Date;
  severity: string | null;
  affected: readonly AffectedNode[];
  deliveries: readonly DeliveryFact[];
  plan: NoticePlan | null;
  /** Why it closed (resolved or abandoned). */
  closedReason?: string | null;
}

export interface NoticeRecipient {
  name: string;
  role: "owner" | "consumer";
  nodeIds: readonly string[];
}

export interface NoticeDraft {
  subject: string;
  text: string;
  /** The units the text names: what the recipient was told, kept with the notice. */
  units: AffectedNode[];
}

const HEADLINE: Record<NoticeEvent, string> = {
  opened: "Incident opened",
  plan_confirmed: "Repair planned",
  resolved: "Resolved",
  abandoned: "Incident abandoned",
  manual: "Update",
};

/** `2026-08-17 02:10 UTC`: minutes are what a reader acts on; seconds are noise in a message. */
export function utcMinute(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const rangeText = ([from, to]: [string, string]) => (from === to ? from : `${from} … ${to}`);

/** The recipient's units: the affected nodes they own or read, one line each, deliveries said beside them. */
export function unitsOfRecipient(facts: Pick<NoticeFacts, "affected" | "deliveries">, recipient: Pick<NoticeRecipient, "nodeIds">): AffectedNode[] {
  const mine = new Set(recipient.nodeIds);
  const seen = new Set<string>();
  const out: AffectedNode[] = [];
  for (const node of facts.affected) {
    if (!mine.has(node.nodeId) || node.units.length === 0) continue;
    // A task and the dataset it writes share a name and units: one line says both.
    const line = `${node.name} ${node.units.map(rangeText).join(", ")}`;
    if (seen.has(line)) continue;
    seen.add(line);
    out.push(node);
  }
  return out;
}

/** The line of one node: its units and, for each unit already sent outside, where and when. */
function unitLine(node: AffectedNode, deliveries: readonly DeliveryFact[]): string {
  const sent = deliveries.filter((d) => d.nodeIds.includes(node.nodeId));
  const said = sent.map((d) => `${d.unitKey} already sent to ${d.destination} on ${utcMinute(d.sentAt)}`);
  return `- ${node.name} ${node.units.map(rangeText).join(", ")}${said.length ? ` (${said.join("; ")})` : ""}`;
}

function beingDone(facts: NoticeFacts): string[] {
  if (facts.event === "resolved")
    return [`Done: repaired and validated${facts.closedReason ? ` — ${facts.closedReason}` : ""}. The units above are whole again.`];
  if (facts.event === "abandoned")
    return [`Stopped: the incident was abandoned${facts.closedReason ? ` — ${facts.closedReason}` : ""}. The units above are not repaired.`];
  if (facts.plan === null) return ["Being done: not planned yet — the commander is scoping the repair.", "ETA: no ETA until a plan is confirmed."];
  const p = facts.plan;
  return [
    `Being done: ${p.strategy.replaceAll("_", " ")}, ${p.unitsRecomputed} unit${p.unitsRecomputed === 1 ? "" : "s"} recomputed in ${p.waves} wave${p.waves === 1 ? "" : "s"}.`,
    p.etaAt
      ? `ETA: ${utcMinute(p.etaAt)}${p.etaBasis ? ` (${p.etaBasis})` : ""}.`
      : `ETA: not estimated — ${p.etaBasis ?? "no attempt of its tasks has a recorded duration"}.`,
  ];
}

/**
 * The message for one recipient, or null when the incident reaches none of their units (they are
 * not told about what they neither own nor read).
 */
export function draftNotice(facts: NoticeFacts, recipient: NoticeRecipient): NoticeDraft | null {
  const units = unitsOfRecipient(facts, recipient);
  if (units.length === 0) return null;
  const sev = facts.severity ? `${facts.severity} · ` : "";
  const subject = `[Reparo] ${sev}${HEADLINE[facts.event]}: ${facts.title}`;
  const lines = [
    subject,
    `${recipient.name}: units you ${recipient.role === "owner" ? "own" : "read"} ${facts.event === "resolved" ? "were" : "are"} affected.`,
    ...units.map((u) => unitLine(u, facts.deliveries)),
    `Since: ${utcMinute(facts.detectedAt)} (detected).`,
    ...beingDone(facts),
  ];
  return { subject, text: lines.join("\n"), units };
}
