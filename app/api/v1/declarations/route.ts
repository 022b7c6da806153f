import { DeclarationsResultSchema, PutDeclarationsSchema } from "@/lib/contracts/declarations";
import { route } from "@/lib/server/http/route";
import { applyDeclarations } from "@/lib/server/ingestion/apply-declarations";

export const runtime = "nodejs";

/**
 * The team's declaration file: datasets' partitions and tasks' repair-safety facts, applied in one
 * transaction (or, with dryRun, only its difference shown). Operators, and `declare` tokens.
 */
export const PUT = route(
  { response: DeclarationsResultSchema, body: PutDeclarationsSchema, maxBodyBytes: 4 * 1024 * 1024, tokens: ["declare"] },
  ({ body, actor }) => applyDeclarations(body, actor),
);
