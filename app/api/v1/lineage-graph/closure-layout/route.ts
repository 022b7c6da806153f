import { ClosureLayoutQuerySchema, ClosureLayoutSchema } from "@/lib/contracts/lineage";
import { route } from "@/lib/server/http/route";
import { getClosureLayout } from "@/lib/server/lineage/get-closure-layout";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: ClosureLayoutSchema, query: ClosureLayoutQuerySchema }, async ({ query }) => getClosureLayout(query, new Date()));
