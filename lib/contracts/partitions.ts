import { z } from "zod";
import type { PartitionDef } from "@/lib/domain/partitions";

/** Partition definitions as JSON (API bodies and the Dataset.partitionDef column). */
export const TimePartitionDefSchema = z.object({
  kind: z.literal("time"),
  grain: z.enum(["hour", "day", "week", "month"]),
  start: z.string().min(1),
  end: z.string().min(1).optional(),
  timezone: z.string().min(1),
  /** When a unit is due after its window closes (ISO-8601 days/hours/minutes); default one grain. */
  lateness: z
    .string()
    .regex(/^P(?=\d|T\d)(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?)?$/, "must be an ISO-8601 duration in days, hours and minutes, e.g. PT6H or P2D")
    .optional(),
});

const StaticSchema = z.object({ kind: z.literal("static"), keys: z.array(z.string().min(1)).min(1) });
const DynamicSchema = z.object({
  kind: z.literal("dynamic"),
  registered: z.array(z.string().min(1)),
  deleted: z.array(z.string().min(1)).optional(),
});
const DimensionSchema = z.discriminatedUnion("kind", [TimePartitionDefSchema, StaticSchema, DynamicSchema]);

export const PartitionDefSchema = z.discriminatedUnion("kind", [
  TimePartitionDefSchema,
  StaticSchema,
  DynamicSchema,
  z.object({
    kind: z.literal("multi"),
    dimensions: z.array(z.object({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), def: DimensionSchema })).min(2),
  }),
  z.object({ kind: z.literal("none") }),
]) satisfies z.ZodType<PartitionDef>;
