import { NextResponse } from "next/server";
import { getDb } from "../repositories/database";
import { errorResponse } from "./route";
import { checkSameOrigin, publicUrl } from "./same-origin";
import { beginSignIn, clearedFlowCookie, completeSignIn, endSessionUrl, FLOW_COOKIE, OidcConfigError, consoleUrl, safeNext } from "../auth/oidc";
import { clearedSessionCookieHeader, openSession, readCookie, SESSION_COOKIE, sessionCookieHeader } from "../auth/session-cookie";
import { redeemSignInLink } from "../auth/sign-in-link";
import { log } from "../observability/log";

/**
 * The sign-in endpoints (/api/auth/*): they set and clear cookies and redirect, so they are not
 * JSON routes. Every failure lands on /sign-in with a message, never on a 5xx page.
 */
function toSignIn(req: Request, error: string): Response {
  return seeOther(req, `/sign-in?error=${encodeURIComponent(error)}`);
}

/** A redirect within the console: relative unless REPARO_PUBLIC_URL names the console. */
function seeOther(req: Request, path: string): Response {
  return new Response(null, { status: 303, headers: { location: publicUrl() ? consoleUrl(req, path).href : path, "cache-control": "no-store" } });
}

export async function login(req: Request): Promise<Response> {
  try {
    const next = new URL(req.url).searchParams.get("next");
    const { location, cookie } = await beginSignIn(getDb(), req, safeNext(next));
    return new Response(null, { status: 302, headers: { location, "set-cookie": cookie, "cache-control": "no-store" } });
  } catch (e) {
    if (e instanceof OidcConfigError) return toSignIn(req, e.message);
    log.error({ err: e }, "sign-in failed");
    return toSignIn(req, `the identity provider could not be reached: ${(e as Error).message}`);
  }
}

export async function callback(req: Request): Promise<Response> {
  try {
    const r = await completeSignIn(getDb(), req, readCookie(req.headers.get("cookie"), FLOW_COOKIE));
    if (!r.ok) return withCookies(toSignIn(req, r.message), [clearedFlowCookie()]);
    return withCookies(seeOther(req, r.next), [clearedFlowCookie(), sessionCookieHeader(r.cookie.value, r.cookie.expiresAt)]);
  } catch (e) {
    log.error({ err: e }, "sign-in failed");
    return withCookies(toSignIn(req, `the sign-in failed: ${(e as Error).message}`), [clearedFlowCookie()]);
  }
}

export async function link(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token");
  if (!token) return toSignIn(req, "this sign-in link is incomplete");
  const r = await redeemSignInLink(getDb(), token);
  if (!r.ok) {
    const why = {
      invalid: "this sign-in link is not valid or has expired",
      used: "this sign-in link was used already: links work once",
      unknown_user: "this link's user was removed",
    }[r.reason];
    return toSignIn(req, `${why} — make a new one with npm run users -- sign-in-link <id>`);
  }
  return withCookies(seeOther(req, "/"), [sessionCookieHeader(r.cookie.value, r.cookie.expiresAt)]);
}

/** Signs out of the console, and answers where to end the provider's session too (if any). */
export async function logout(req: Request): Promise<Response> {
  try {
    checkSameOrigin(req);
    const session = await openSession(getDb(), readCookie(req.headers.get("cookie"), SESSION_COOKIE));
    const redirect = session?.via === "oidc" ? await endSessionUrl(req, session.idToken).catch(() => null) : null;
    return withCookies(NextResponse.json({ signedOut: true, redirect }), [clearedSessionCookieHeader()]);
  } catch (e) {
    return errorResponse(e);
  }
}

function withCookies(res: Response, cookies: string[]): Response {
  for (const c of cookies) res.headers.append("set-cookie", c);
  return res;
}
