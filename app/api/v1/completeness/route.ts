import { CompletenessQuerySchema, CompletenessSchema } from "@/lib/contracts/completeness";
import { getCompleteness } from "@/lib/server/completeness/get-completeness";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The completeness certificate as JSON, for BI tools and CI gates to call before quoting a number. */
export const GET = route({ response: CompletenessSchema, query: CompletenessQuerySchema }, async ({ query }) => getCompleteness(query, new Date()));
