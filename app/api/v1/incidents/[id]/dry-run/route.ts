import { IdParamsSchema } from "@/lib/contracts/incidents";
import { DispatchPreviewSchema, DryRunBodySchema } from "@/lib/contracts/orchestrators";
import { route } from "@/lib/server/http/route";
import { previewDispatch } from "@/lib/server/repair/dry-run";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The orchestrators' own dry run of the confirmed plan, compared with it (sends requests out: never retried on a busy database). */
export const POST = route(
  { response: DispatchPreviewSchema, params: IdParamsSchema, body: DryRunBodySchema, role: "operator", retryWhenBusy: false },
  ({ params, body, actor }) => previewDispatch(params.id, body, actor),
);
