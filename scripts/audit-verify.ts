// npm run audit:verify — recomputes the audit log's hash chain in the database DATABASE_URL names.
// Exit 0 when every entry links to its predecessor and matches its hash; 1 with the first broken seq.
import { verifyAuditChain } from "@/lib/server/audit/verify-audit-chain";
import { createDb } from "@/lib/server/db/client";
import { describeTarget, ensureDatabase } from "@/lib/server/db/ensure-database";
import { runCli } from "./run-cli";

runCli(async () => {
  const { target } = await ensureDatabase();
  const db = createDb(target);
  const r = await verifyAuditChain(db).finally(() => db.$disconnect());
  if (r.ok) {
    console.log(`${describeTarget(target)}: audit chain verified, ${r.entries} entries, head ${r.headHash ?? "(empty)"}`);
    return;
  }
  console.error(`${describeTarget(target)}: audit chain BROKEN at seq ${r.brokenAt!.seq}: ${r.brokenAt!.reason} (${r.entries} entries verified before it)`);
  process.exit(1);
});
