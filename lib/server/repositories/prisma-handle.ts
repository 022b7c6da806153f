import type { Tx as PrismaTx } from "../db/client";
import type { Db, Tx } from "./database";

/**
 * The Prisma client behind a handle: for repository files only (ESLint refuses this import
 * anywhere else). Both generated clients share one model API, so one type serves both.
 */
export function prismaOf(handle: Db | Tx): PrismaTx {
  return handle as unknown as PrismaTx;
}
