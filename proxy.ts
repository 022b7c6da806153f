import { NextResponse, type NextRequest } from "next/server";
import { demoHostRefusal } from "@/lib/server/http/demo-host";

/**
 * Before any route: in demo mode, a request addressed to another host name (DNS rebinding,
 * lib/server/http/demo-host.ts) is refused. A path with malformed percent-encoding (`/api/v1/incidents/%FF`) is the
 * client's error. Next.js would fail decoding its dynamic segments with a bare 500.
 */
export function proxy(req: NextRequest): NextResponse {
  const raw = req.nextUrl.pathname;
  const misaddressed = demoHostRefusal(req.headers.get("host"));
  if (misaddressed) {
    return raw.startsWith("/api/")
      ? NextResponse.json({ error: "forbidden", message: misaddressed }, { status: 403 })
      : new NextResponse(`Forbidden: ${misaddressed}`, { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  try {
    for (const segment of raw.split("/")) decodeURIComponent(segment);
  } catch {
    const body = {
      error: "invalid_request",
      message: "path: malformed percent-encoding",
      details: { issues: [{ path: "path", message: "malformed percent-encoding" }] },
    };
    return raw.startsWith("/api/")
      ? NextResponse.json(body, { status: 400 })
      : new NextResponse("Bad request: malformed percent-encoding in the address", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  return NextResponse.next();
}

/**
 * Not on the ingestion routes: Next.js buffers the body of every request the proxy sees, at most
 * 10 MiB (experimental.proxyClientMaxBodySize), and hands the route only what it buffered — a
 * 12 MB batch arrived cut at 10 MiB, its tail events silently lost. These routes read their own
 * bodies within their documented limits (16 MiB OpenLineage, 8 MiB ledger batches, 64 MiB dbt)
 * and have no dynamic segments for the check above. Any other route's limit is under 10 MiB.
 */
export const config = {
  matcher: ["/((?!_next/static|_next/image|api/v1/(?:lineage|lineage/batch|import/dbt|publishes|source-counts|warehouse-counts|declarations)/?$).*)"],
};
