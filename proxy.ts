import { NextResponse, type NextRequest } from "next/server";

/**
 * Before any route: a path with malformed percent-encoding (`/api/v1/incidents/%FF`) is the
 * client's error. Next.js would fail decoding its dynamic segments with a bare 500.
 */
export function proxy(req: NextRequest): NextResponse {
  const raw = req.nextUrl.pathname;
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

export const config = { matcher: ["/((?!_next/static|_next/image).*)"] };
