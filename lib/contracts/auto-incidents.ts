import { z } from "zod";
import { reasonField } from "./reason";

/**
 * Incidents opened for you (issue "Who must know", item 5), per pipeline and off by default: while
 * on, a root-cause alert group whose root a task of the pipeline writes opens an incident on its
 * own — its severity, owners and notices follow as for one opened by a person.
 */
export const PutAutoIncidentsBodySchema = z.strictObject({
  enabled: z.boolean({ message: "enabled must be true or false" }),
  reason: reasonField,
});
export type PutAutoIncidentsBody = z.infer<typeof PutAutoIncidentsBodySchema>;

export const AutoIncidentsViewSchema = z.object({
  pipelineId: z.string(),
  pipeline: z.string(),
  enabled: z.boolean(),
});
export type AutoIncidentsView = z.infer<typeof AutoIncidentsViewSchema>;

/** What one pass opened: each incident, the alert group it came from, or why a group was left. */
export const AutoOpenedSchema = z.object({
  opened: z.array(z.object({ incidentId: z.string(), group: z.string(), pipeline: z.string() })),
  left: z.array(z.object({ group: z.string(), why: z.string() })),
});
export type AutoOpened = z.infer<typeof AutoOpenedSchema>;
