import { IdParamsSchema } from "@/lib/contracts/incidents";
import { IncidentNoticesSchema, SendNoticeBodySchema, SendNoticeResultSchema } from "@/lib/contracts/notices";
import { route } from "@/lib/server/http/route";
import { getIncidentNotices } from "@/lib/server/notify/get-incident-notices";
import { sendNotice } from "@/lib/server/notify/send-notice";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: IncidentNoticesSchema, params: IdParamsSchema }, ({ params }) => getIncidentNotices(params.id));

export const POST = route(
  { response: SendNoticeResultSchema, params: IdParamsSchema, body: SendNoticeBodySchema, role: "operator" },
  ({ params, body, actor }) => sendNotice(params.id, body, actor),
);
