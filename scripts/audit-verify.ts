// npm run audit:verify [-- --head <file>] — recomputes the audit log's hash chain in the database
// DATABASE_URL names, and checks it against a head exported earlier (npm run audit:head), which
// detects a log cut short or rewritten with fresh hashes. Exit 0 when it holds; 1 listing every break.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { AuditHeadSchema } from "@/lib/contracts/audit";
import { verifyAuditChain } from "@/lib/server/audit/verify-audit-chain";
import { createDb } from "@/lib/server/repositories/database";
import { describeTarget, ensureDatabase } from "@/lib/server/db/ensure-database";
import { runCli } from "./run-cli";

runCli(async () => {
  const { values } = parseArgs({ options: { head: { type: "string" } } });
  const head = values.head ? AuditHeadSchema.parse(JSON.parse(fs.readFileSync(values.head, "utf8"))) : undefined;
  const { target } = await ensureDatabase();
  const db = createDb(target);
  const r = await verifyAuditChain(db, head).finally(() => db.$disconnect());
  const where = describeTarget(target);
  if (r.ok) {
    console.log(
      `${where}: audit chain verified, ${r.entries} entries, head ${r.headHash ?? "(empty)"}${r.against ? `; exported head at seq ${r.against.seq} matches` : ""}`,
    );
    return;
  }
  for (const b of r.broken) console.error(`${where}: audit chain BROKEN at seq ${b.seq}: ${b.reason}`);
  if (r.brokenCount > r.broken.length) console.error(`… and ${r.brokenCount - r.broken.length} more broken entries`);
  if (r.against && !r.against.ok) console.error(`${where}: against the exported head: ${r.against.reason}`);
  console.error(`${r.entries} entries read, ${r.brokenCount} broken`);
  process.exit(1);
});
