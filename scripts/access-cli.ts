import { DomainError } from "@/lib/domain/errors";
import os from "node:os";
import { parseArgs } from "node:util";
import { createDb, type Db } from "@/lib/server/repositories/database";
import { describeTarget, ensureDatabase } from "@/lib/server/db/ensure-database";
import { HttpError } from "@/lib/server/http/errors";
import type { ChangedBy } from "@/lib/server/access/manage-access";

/**
 * What `npm run users` and `npm run tokens` share: the database (migrated first), the acting
 * identity (whoever runs the command on the console's machine acts as an admin, named in the
 * audit log as cli:<os user>), flags, and errors as one line with exit 1 (2 for usage).
 */
export class UsageError extends Error {}

export function parse<O extends Record<string, { type: "string" }>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...options, reason: { type: "string" as const } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function cliActor(reason: string | undefined, fallback: string): ChangedBy {
  return { actor: `cli:${os.userInfo().username}`, actorRole: "admin", reason: reason?.trim() || fallback };
}

export function namespacesFlag(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
}

export function runAccessCli(usage: string, main: (db: Db, where: string) => Promise<void>): void {
  const run = async () => {
    const { target } = await ensureDatabase();
    const db = createDb(target);
    try {
      await main(db, describeTarget(target));
    } finally {
      await db.$disconnect();
    }
  };
  run().then(
    () => process.exit(0),
    (e: unknown) => {
      if (e instanceof UsageError) {
        console.error(`reparo: ${e.message}\n\n${usage}`);
        process.exit(2);
      }
      // A refusal (no such user, a conflict, a bad field) is said in one line; only a fault shows its stack.
      const expected = e instanceof HttpError || e instanceof DomainError;
      console.error(`reparo: ${e instanceof Error ? e.message : String(e)}`);
      if (!expected && e instanceof Error && e.stack) console.error(e.stack);
      process.exit(1);
    },
  );
}
