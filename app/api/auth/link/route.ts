import { link } from "@/lib/server/http/auth-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = (req: Request) => link(req);
