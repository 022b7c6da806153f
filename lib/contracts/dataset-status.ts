import { z } from "zod";

export const DatasetStatusParamsSchema = z.object({ id: z.string().min(1, "name a dataset (node id or name)").max(300) });

const StatusIncidentSchema = z.object({ id: z.string(), title: z.string(), status: z.string(), href: z.string() });

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
