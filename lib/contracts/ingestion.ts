import { z } from "zod";

/** GET /api/v1/ingestion: what the settings page shows about incoming events. */
export const IngestionStatusSchema = z.object({
  /** `unfolded`: stored events the fold has not written into the ledger yet (deferred folding). */
  totals: z.object({ events: z.number().int(), rejected: z.number().int(), unfolded: z.number().int() }),
  recentEvents: z.array(
    z.object({
      eventHash: z.string(),
      eventType: z.string(),
      jobNodeId: z.string(),
      runId: z.string(),
      eventTime: z.string(),
      receivedAt: z.string(),
      /** Who sent it: token:<name> or a person's id; null before attribution was recorded. */
      submittedBy: z.string().nullable(),
    }),
  ),
  rejectedEvents: z.array(
    z.object({
      id: z.string(),
      receivedAt: z.string(),
      endpoint: z.string(),
      fieldPath: z.string(),
      reason: z.string(),
      excerpt: z.string(),
    }),
  ),
  /**
   * What the current lineage holds that closures cannot take as declared: degraded edges
   * (walked as every unit), cycles cut for walking, definitions that do not resolve.
   */
  lineageProblems: z.array(
    z.object({
      code: z.enum(["degraded_edge", "cycle_cut", "bad_partitions", "unknown_node", "duplicate_node"]),
      message: z.string(),
      nodeIds: z.array(z.string()),
    }),
  ),
});
export type IngestionStatus = z.infer<typeof IngestionStatusSchema>;
