import { AckBodySchema, AckParamsSchema, AckViewSchema } from "@/lib/contracts/notices";
import { route } from "@/lib/server/http/route";
import { acknowledgeNotice, readAcknowledgement } from "@/lib/server/notify/acknowledge-notice";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Public: the link a recipient was sent is the credential (a finance analyst has no Reparo account).
export const GET = route({ response: AckViewSchema, params: AckParamsSchema, public: true }, ({ params }) => readAcknowledgement(params.token));

export const POST = route({ response: AckViewSchema, params: AckParamsSchema, body: AckBodySchema, public: true }, ({ params, body, actor }) =>
  acknowledgeNotice(params.token, body.name, actor),
);
