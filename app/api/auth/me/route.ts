import { route } from "@/lib/server/http/route";
import { describeMe } from "@/lib/server/auth/describe-me";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ public: true }, async ({ actor }) => describeMe(actor));
