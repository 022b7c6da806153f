import { DatasetStatusParamsSchema, DatasetStatusSchema } from "@/lib/contracts/dataset-status";
import { getDatasetStatus } from "@/lib/server/completeness/get-dataset-status";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A dataset's status line as JSON, for a dashboard or a bot to show where its numbers are read; a minute old at most. */
export const GET = route({ params: DatasetStatusParamsSchema }, async ({ params }) => {
  const status = DatasetStatusSchema.parse(await getDatasetStatus(params.id, new Date()));
  return Response.json(status, { headers: { "cache-control": "private, max-age=60" } });
});
