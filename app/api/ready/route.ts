import { NextResponse } from "next/server";
import { checkReady } from "@/lib/server/health/check-ready";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Readiness for a load balancer: 200 when this instance should get traffic, else 503 naming why. */
export const GET = route({ public: true }, async () => {
  const r = await checkReady();
  return NextResponse.json(r, { status: r.ready ? 200 : 503, headers: { "cache-control": "no-store" } });
});
