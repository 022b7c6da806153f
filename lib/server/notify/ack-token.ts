import crypto from "node:crypto";
import { publicUrl } from "../http/same-origin";
import type { Db } from "../repositories/database";
import { readSetting, settleSetting } from "../repositories/system/settings";

/**
 * A notice's acknowledgement token: an HMAC of the notice id under a random key the console
 * generates once and keeps in its Setting table (shared by every instance). Unguessable without
 * the key; only its SHA-256 is stored on the notice, and the sender derives it again when it adds
 * the link, so no table holds a token that would acknowledge anything.
 */
export async function ackKey(db: Db): Promise<string> {
  return (await readSetting(db, "notice-ack-key")) ?? (await settleSetting(db, "notice-ack-key", crypto.randomBytes(32).toString("base64url")));
}

export function ackTokenOf(key: string, noticeId: string): string {
  return crypto.createHmac("sha256", key).update(`notice-ack:${noticeId}`).digest("base64url");
}

export function hashAckToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

/** The link a recipient follows: REPARO_PUBLIC_URL when set, else this console on its port (docs/notifications.md). */
export function ackUrlOf(token: string): string {
  const base = publicUrl()?.origin ?? `http://localhost:${process.env.PORT ?? 3000}`;
  return new URL(`/ack/${token}`, base).toString();
}
