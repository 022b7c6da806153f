import { HistoryQuerySchema, HistorySchema } from "@/lib/contracts/history";
import { getRepairHistory } from "@/lib/server/history/get-repair-history";
import { repairsToCsv } from "@/lib/server/history/repairs-to-csv";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Repair history as JSON, or as CSV with ?format=csv (one row per repair run). */
export const GET = route({ response: HistorySchema, query: HistoryQuerySchema }, async ({ query }) => {
  const history = await getRepairHistory(query, new Date());
  if (query.format === "json") return history;
  return new Response(repairsToCsv(history.repairs), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="reparo-repairs-${history.generatedAt.slice(0, 10)}.csv"`,
    },
  });
});
