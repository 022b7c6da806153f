import { z } from "zod";
import { reasonField } from "./reason";
import { SecretRefSchema } from "./orchestrators";

/**
 * Where a dataset namespace's rows live, so Reparo can clean a unit for real (delete its rows in
 * one transaction, counting before and after): set by an admin with
 * `PUT /api/v1/warehouses/{namespace}`. The connection string is a NAMED secret.
 */
const Identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_$]*$/, "a SQL identifier: letters, digits, _ and $");
const QualifiedTable = z.string().regex(/^([A-Za-z_][A-Za-z0-9_$]*\.)?[A-Za-z_][A-Za-z0-9_$]*$/, "schema.table or table");

export const TableMappingSchema = z
  .object({
    /** schema.table (default: the last two dot-separated parts of the dataset's name). */
    table: QualifiedTable.optional(),
    /** The column that says which unit a row belongs to (a date or timestamp for time units). */
    unitColumn: Identifier.optional(),
  })
  .strict();

export const PostgresWarehouseSchema = z
  .object({
    kind: z.literal("postgresql"),
    /** A connection string, postgresql://user:password@host:5432/db — named, never stored. */
    url: SecretRefSchema,
    /** The unit column of every table not listed in `tables`. */
    unitColumn: Identifier.optional(),
    /** Per dataset name (as ingested). */
    tables: z.record(z.string().min(1), TableMappingSchema).default({}),
  })
  .strict();

/** The demo's own warehouse (the WarehouseRow table), for the demo's datasets. */
export const DemoWarehouseSchema = z.object({ kind: z.literal("demo") }).strict();
export const NoWarehouseSchema = z.object({ kind: z.literal("none") }).strict();

export const WarehouseConnectionSchema = z.discriminatedUnion("kind", [PostgresWarehouseSchema, DemoWarehouseSchema, NoWarehouseSchema]);
export type WarehouseConnection = z.infer<typeof WarehouseConnectionSchema>;
export type PostgresWarehouse = z.infer<typeof PostgresWarehouseSchema>;

export const PutWarehouseBodySchema = z.object({ connection: WarehouseConnectionSchema, reason: reasonField }).strict();
export const WarehouseParamsSchema = z.object({ namespace: z.string().trim().min(1).max(500) });

export const WarehouseConnectionViewSchema = z.object({
  namespace: z.string(),
  connection: WarehouseConnectionSchema,
  secret: z.object({ name: z.string(), readable: z.boolean().nullable() }).nullable(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type WarehouseConnectionView = z.infer<typeof WarehouseConnectionViewSchema>;
