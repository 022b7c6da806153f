import { z } from "zod";

export const DatasetStatusParamsSchema = z.object({ id: z.string().min(1, "name a dataset (node id or name)").max(300) });

const StatusIncidentSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  href: z.string(),
  /** When its confirmed plan should be done (lib/domain/plan-eta.ts); null: no plan confirmed yet. */
  eta: z.object({ at: z.string().nullable(), basis: z.string() }).nullable(),
});

/** GET /api/v1/datasets/{id}/status: the dataset's status line and what it is made of (lib/domain/dataset-status.ts). */
export const DatasetStatusSchema = z.object({
  dataset: z.object({ nodeId: z.string(), name: z.string(), pipeline: z.string().nullable(), grain: z.string().nullable() }),
  period: z.object({ from: z.string(), to: z.string() }),
  checkedAt: z.string(),
  state: z.enum(["complete", "incomplete", "being_repaired"]),
  completeThrough: z.string().nullable(),
  headline: z.string(),
  problems: z.array(
    z.object({
      unitKey: z.string(),
      word: z.string(),
      /** The certificate's sentence for the unit, in an analyst's words. */
      sentence: z.string(),
      beingRepaired: z.boolean(),
      incidents: z.array(StatusIncidentSchema),
    }),
  ),
  /** The open incidents on any of its units. */
  incidents: z.array(StatusIncidentSchema),
  links: z.object({ page: z.string(), badge: z.string(), completeness: z.string() }),
});
export type DatasetStatusView = z.infer<typeof DatasetStatusSchema>;

export const PipelineStatusParamsSchema = z.object({ id: z.string().min(1, "name a pipeline").max(300) });

/** GET /api/v1/pipelines/{id}/status: the status line of each dataset the pipeline writes, and the pipeline's in one line. */
export const PipelineStatusSchema = z.object({
  pipeline: z.string(),
  checkedAt: z.string(),
  /** The worst of its datasets': incomplete, then being repaired, then unknown, then complete. */
  state: z.enum(["complete", "incomplete", "being_repaired", "unknown"]),
  headline: z.string(),
  datasets: z.array(
    z.object({
      nodeId: z.string(),
      name: z.string(),
      /** unknown: no declared partition definition, so its expected units are unknown (never called complete). */
      state: z.enum(["complete", "incomplete", "being_repaired", "unknown"]),
      headline: z.string(),
      completeThrough: z.string().nullable(),
      problems: z.number().int(),
      page: z.string(),
    }),
  ),
  incidents: z.array(StatusIncidentSchema),
});
export type PipelineStatusView = z.infer<typeof PipelineStatusSchema>;
