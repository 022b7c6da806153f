import { z } from "zod";
import { reasonField } from "./reason";
import { PartitionDefSchema } from "./partitions";
import { TASK_FACTS } from "@/lib/domain/fact-sources";
import { PUBLISH_MODES, SIDE_EFFECTS, WRITE_MODES } from "@/lib/domain/lineage-graph";
import { producerName } from "./plain-text";
import { ChannelSchema, ContactSchema } from "./people";
import { CONSUMER_KINDS } from "@/lib/domain/recipients";

/**
 * The team's declaration file (YAML or JSON), kept with its pipeline code and applied with one
 * call: what OpenLineage does not carry — each dataset's partitions, each task's repair-safety
 * facts. A node is named by its OpenLineage namespace and name, as the producer sends them.
 *
 *   version: 1
 *   datasets:
 *     - namespace: postgres://db:5432
 *       name: warehouse.public.orders
 *       partitions: { kind: time, grain: day, start: "2026-08-01", timezone: UTC }
 *   tasks:
 *     - namespace: airflow-prod
 *       name: orders_etl.load
 *       writeMode: replace
 *       sideEffect: none
 *       dependsOnOwnPast: false
 *       owner: orders-team
 *   teams:                       # an owner's people and channel, by the name tasks and datasets give as owner
 *     - name: finance-team
 *       people: [ana@example.com]
 *       channel: { kind: email, address: finance-ops@example.com }
 *   consumers:                   # who reads past the last dataset: drawn on the lineage, told in an incident
 *     - id: finance-ledger
 *       name: Finance ledger
 *       kind: export_recipient     # dashboard | export_recipient | model_team | other
 *       reads: [{ namespace: finance, name: weekly_revenue_export }]   # datasets (or `kind: task`)
 *       people: [controller@example.com]
 *       channel: { kind: slack, url: "https://hooks.slack.com/services/T000/B000/XXXX" }
 */
const node = { namespace: producerName(), name: producerName() };

const ownerField = z.string().trim().min(1).max(200);

export const DeclaredDatasetSchema = z.strictObject({
  ...node,
  partitions: PartitionDefSchema.optional(),
  /** The team (or person) who owns the dataset: outranks the ownership facet producers send. */
  owner: ownerField.optional(),
});

export const DeclaredTaskSchema = z
  .strictObject({
    ...node,
    writeMode: z.enum(WRITE_MODES).optional(),
    sideEffect: z.enum(SIDE_EFFECTS).optional(),
    dependsOnOwnPast: z.boolean().optional(),
    publishMode: z.enum(PUBLISH_MODES).optional(),
    owner: ownerField.optional(),
  })
  .refine((t) => TASK_FACTS.some((k) => t[k] !== undefined), {
    message: `declare at least one of ${TASK_FACTS.join(", ")}`,
  });

/** A team named as an owner: its people and the channel messages go to (none: REPARO_NOTIFY_WEBHOOK_URL). */
export const DeclaredTeamSchema = ContactSchema;

/** A consumer's id: its lineage node is `consumer:<id>`. */
export const CONSUMER_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export const DeclaredConsumerSchema = z.strictObject({
  id: z.string().trim().regex(CONSUMER_ID, "a consumer's id: lower-case letters, digits, '.', '_' or '-' (up to 100), e.g. finance-ledger"),
  /** How it is shown and addressed ("Finance ledger"); the id when absent. */
  name: z.string().trim().min(1).max(200).optional(),
  kind: z.enum(CONSUMER_KINDS),
  /** What it reads: datasets by default, a task's output with `kind: task`. */
  reads: z
    .array(z.strictObject({ ...node, kind: z.enum(["dataset", "task"]).default("dataset") }))
    .min(1, "a consumer reads at least one dataset or task")
    .max(500),
  people: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  channel: ChannelSchema.optional(),
});

/** Names (or ids) given twice: the second one is refused, naming its place. */
function uniqueBy<T>(items: readonly T[], keyOf: (item: T) => string, field: string, what: string, ctx: z.RefinementCtx, list: string): void {
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    const key = keyOf(item);
    if (seen.has(key)) ctx.addIssue({ code: "custom", path: [list, i, field], message: `${what} ${key} is declared twice` });
    seen.add(key);
  }
}

export const DeclarationFileSchema = z
  .strictObject({
    version: z.literal(1, "the declaration file's version: 1"),
    datasets: z.array(DeclaredDatasetSchema).max(5_000).default([]),
    tasks: z.array(DeclaredTaskSchema).max(5_000).default([]),
    teams: z.array(DeclaredTeamSchema).max(1_000).default([]),
    consumers: z.array(DeclaredConsumerSchema).max(1_000).default([]),
  })
  .superRefine((file, ctx) => {
    uniqueBy(file.teams, (t) => t.name, "name", "the team", ctx, "teams");
    uniqueBy(file.consumers, (c) => c.id, "id", "the consumer", ctx, "consumers");
  });
export type DeclarationFile = z.infer<typeof DeclarationFileSchema>;

/** PUT /api/v1/declarations: the file (its YAML text, or the same as JSON), why, and whether only to show the difference. */
export const PutDeclarationsSchema = z.strictObject({
  declarations: z.union([z.string().min(1).max(2_000_000), z.record(z.string(), z.unknown())]),
  reason: reasonField,
  dryRun: z.boolean().default(false),
});
export type PutDeclarations = z.infer<typeof PutDeclarationsSchema>;

/**
 * A team's or a consumer's declared contacts, as a change shows them: its channel described
 * (describeChannel), never its URL — the answer and the audit log are read by viewers, and a
 * hook's secret is in its path.
 */
const ContactValueSchema = z.object({
  name: z.string(),
  people: z.array(z.string()),
  channel: z.string().nullable(),
  kind: z.string().optional(),
  reads: z.array(z.string()).optional(),
});
const value = z.union([z.string(), z.boolean(), z.null(), PartitionDefSchema, ContactValueSchema]);
export const DeclarationChangeSchema = z.object({
  /** A task's or dataset's node id; `team:<name>` for a team; a consumer's node id `consumer:<id>`. */
  nodeId: z.string(),
  fact: z.enum(["partitions", ...TASK_FACTS, "team", "consumer"]),
  before: value,
  /** Where `before` came from: declared, dbt, airflow, openlineage, history; null: nobody said. */
  beforeSource: z.string().nullable(),
  after: value,
});
export type DeclarationChange = z.infer<typeof DeclarationChangeSchema>;

export const DeclarationsResultSchema = z.object({
  /** False for a dry run: the changes are what applying would do. */
  applied: z.boolean(),
  changes: z.array(DeclarationChangeSchema),
  /** Declared facts that already held. */
  unchanged: z.number().int(),
  /** New partitions folded the stored runs again (as PUT …/partitions does). */
  refolded: z.object({ runs: z.number().int(), publishes: z.number().int() }),
  auditSeq: z.number().int().nullable(),
});
export type DeclarationsResult = z.infer<typeof DeclarationsResultSchema>;
