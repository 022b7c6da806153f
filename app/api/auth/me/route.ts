import { MeSchema } from "@/lib/contracts/access";
import { route } from "@/lib/server/http/route";
import { describeMe } from "@/lib/server/auth/describe-me";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: MeSchema, public: true }, async ({ actor }) => describeMe(actor));
