import { login } from "@/lib/server/http/auth-routes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = (req: Request) => login(req);
