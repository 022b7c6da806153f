import { z } from "zod";
import { ClosureAnswerQuerySchema, CompactClosureSchema, compactClosure } from "@/lib/contracts/compact-closure";
import { ClosureSchema } from "@/lib/contracts/lineage";
import { route } from "@/lib/server/http/route";
import { computeClosure } from "@/lib/server/lineage/compute-closure";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: z.union([ClosureSchema, CompactClosureSchema]), query: ClosureAnswerQuerySchema }, async ({ query }) => {
  const closure = await computeClosure(query, new Date());
  return query.form === "compact" ? compactClosure(closure) : closure;
});
