import { z } from "zod";
import { CHANNEL_KINDS } from "./people";

/**
 * Who owns and who reads a node, as the console shows them (the lineage's closure panel, the
 * matrix's cell panel). A channel is shown by its kind only: a webhook's URL is a credential.
 */
export const OwnerViewSchema = z.object({
  name: z.string(),
  /** Where it was found, in words: "declared", "OpenLineage facet", "owner of the task writing it", "owner of its pipeline". */
  from: z.string(),
});
export type OwnerView = z.infer<typeof OwnerViewSchema>;

export const RecipientViewSchema = z.object({
  key: z.string(),
  name: z.string(),
  role: z.enum(["owner", "consumer"]),
  consumerKind: z.enum(["dashboard", "export_recipient", "model_team", "other"]).nullable(),
  people: z.array(z.string()),
  /** Null: none declared (the default webhook, REPARO_NOTIFY_WEBHOOK_URL, reaches them). */
  channel: z.enum(CHANNEL_KINDS).nullable(),
  nodeIds: z.array(z.string()),
});
export type RecipientView = z.infer<typeof RecipientViewSchema>;

/** GET /api/v1/lineage-graph/node-people. */
export const NodePeopleQuerySchema = z.object({ nodeId: z.string().min(1, "is required (a node id such as dataset:warehouse:revenue_daily)").max(2_000) });

/** One node's owners (with where each was found) and the consumers reading it. */
export const NodePeopleSchema = z.object({
  nodeId: z.string(),
  owners: z.array(OwnerViewSchema),
  readBy: z.array(RecipientViewSchema),
});
export type NodePeople = z.infer<typeof NodePeopleSchema>;

/** GET /api/v1/lineage-graph/people (the closure's query): the selected node's people, and everyone the closure reaches. */
export const ClosurePeopleSchema = z.object({
  node: NodePeopleSchema,
  recipients: z.array(RecipientViewSchema),
});
export type ClosurePeople = z.infer<typeof ClosurePeopleSchema>;
