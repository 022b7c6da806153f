import { ClosureQuerySchema, ClosureSchema } from "@/lib/contracts/lineage";
import { route } from "@/lib/server/http/route";
import { computeClosure } from "@/lib/server/lineage/compute-closure";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: ClosureSchema, query: ClosureQuerySchema }, async ({ query }) => computeClosure(query, new Date()));
