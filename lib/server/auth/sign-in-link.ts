import crypto from "node:crypto";
import type { Db } from "../repositories/database";
import { NotFoundError } from "@/lib/domain/errors";
import { findUser } from "../repositories/access/users";
import { settleSetting } from "../repositories/system/settings";
import { publicUrl } from "../http/same-origin";
import { readSignInLinkToken, sealSession, signInLinkToken } from "./session-cookie";

/**
 * One-time sign-in links, made on the console's machine (`npm run users -- sign-in-link <id>`):
 * how the first admin of a fresh database signs in before single sign-on is set up, and how a
 * console without an identity provider is used at all. A link works once, for minutes.
 */
export async function signInLink(db: Db, userId: string, minutes: number): Promise<string> {
  if (!(await findUser(db, userId))) throw new NotFoundError(`no user ${userId}: add one first (npm run users -- add ${userId} --role admin)`);
  const base = publicUrl()?.origin ?? `http://localhost:${process.env.PORT ?? 3000}`;
  return `${base}/api/auth/link?token=${encodeURIComponent(await signInLinkToken(db, userId, minutes))}`;
}

export type LinkOutcome = { ok: true; cookie: { value: string; expiresAt: Date }; userId: string } | { ok: false; reason: "invalid" | "used" | "unknown_user" };

export async function redeemSignInLink(db: Db, token: string): Promise<LinkOutcome> {
  const link = await readSignInLinkToken(db, token);
  if (!link) return { ok: false, reason: "invalid" };
  const mine = crypto.randomBytes(8).toString("hex");
  // The first use records the link's id; any later use finds another value there.
  if ((await settleSetting(db, `sign-in-link:${link.jti}`, mine)) !== mine) return { ok: false, reason: "used" };
  if (!(await findUser(db, link.userId))) return { ok: false, reason: "unknown_user" };
  return { ok: true, userId: link.userId, cookie: await sealSession(db, { userId: link.userId, via: "link" }) };
}
