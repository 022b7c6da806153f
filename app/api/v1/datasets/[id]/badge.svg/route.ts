import { DatasetStatusParamsSchema } from "@/lib/contracts/dataset-status";
import { statusBadgeSvg } from "@/lib/domain/status-badge";
import { getDatasetStatus } from "@/lib/server/completeness/get-dataset-status";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The status line as an SVG badge for a BI dashboard's image tile (docs/completeness.md); a minute old at most. */
export const GET = route({ params: DatasetStatusParamsSchema }, async ({ params }) => {
  const status = await getDatasetStatus(params.id, new Date());
  const message = status.headline.slice(status.dataset.name.length + " · ".length);
  return new Response(statusBadgeSvg(status.dataset.name, message, status.state), {
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": "private, max-age=60",
      "x-content-type-options": "nosniff",
      // Opened on its own, the badge is a document: nothing in it may run or load.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
});
