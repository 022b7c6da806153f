// npm run audit:head — prints the audit chain's head (last seq, its hash, the entry count) signed
// with REPARO_AUDIT_KEY, as one JSON line: store it outside the database (object storage with
// retention, a ticket, a log pipeline) and verify later with npm run audit:verify -- --head <file>.
import { auditKey, currentAuditHead } from "@/lib/server/audit/audit-head";
import { createDb } from "@/lib/server/repositories/database";
import { ensureDatabase } from "@/lib/server/db/ensure-database";
import { runCli } from "./run-cli";

runCli(async () => {
  if (!auditKey()) console.error("reparo: REPARO_AUDIT_KEY is not set: the head is printed unsigned and proves nothing against a rewrite");
  const { target } = await ensureDatabase();
  const db = createDb(target);
  const head = await currentAuditHead(db).finally(() => db.$disconnect());
  if (!head) throw new Error("the audit log is empty: nothing to export yet");
  console.log(JSON.stringify(head));
});
