import nodemailer from "nodemailer";
import type { Channel } from "@/lib/contracts/people";
import type { AffectedNode } from "@/lib/domain/notice-draft";
import { postJsonOnce, type PostOutcome } from "../webhooks/post-json";
import type { NotifyConfig } from "./notify-config";

export interface OutgoingNotice {
  noticeId: string;
  incidentId: string;
  event: string;
  recipient: string;
  subject: string;
  text: string;
  units: AffectedNode[];
  ackUrl: string;
}

const TIMEOUT_MS = 10_000;

/** REPARO_SMTP_URL as nodemailer's options, with the channel's timeouts (an SMTP server that hangs is a failed try, not a stuck job). */
function smtpOptions(url: string) {
  const u = new URL(url);
  const secure = u.protocol === "smtps:";
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } } : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  };
}

/** The text as sent: the drafted message and the acknowledgement link, on every channel alike. */
export function textWithLink(n: OutgoingNotice): string {
  return `${n.text}\nAcknowledge: ${n.ackUrl}`;
}

/** Slack's incoming-webhook body: `text` (the fallback every client shows) and the same in blocks, with the link as a button. */
export function slackBody(n: OutgoingNotice): string {
  return JSON.stringify({
    text: textWithLink(n),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: n.text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!) } },
      { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Acknowledge" }, url: n.ackUrl }] },
    ],
  });
}

/** The generic webhook's body: the text (so a Slack-compatible receiver shows it too) and the facts as data. */
export function webhookBody(n: OutgoingNotice, at: Date): string {
  return JSON.stringify({
    type: "reparo.notice",
    sentAt: at.toISOString(),
    noticeId: n.noticeId,
    incidentId: n.incidentId,
    event: n.event,
    recipient: n.recipient,
    subject: n.subject,
    text: textWithLink(n),
    units: n.units,
    ackUrl: n.ackUrl,
  });
}

/**
 * One try of one notice through its channel. Never throws: an unreachable receiver, a refused
 * e-mail or a missing SMTP server is an outcome the caller records and retries.
 */
export async function sendThroughChannel(channel: Channel, n: OutgoingNotice, config: NotifyConfig, at = new Date()): Promise<PostOutcome> {
  if (channel.kind === "slack") return postJsonOnce(channel.url, slackBody(n), { timeoutMs: TIMEOUT_MS, secret: null, userAgent: "reparo-notices" });
  if (channel.kind === "webhook")
    return postJsonOnce(channel.url, webhookBody(n, at), { timeoutMs: TIMEOUT_MS, secret: config.webhookSecret, userAgent: "reparo-notices" });
  if (config.smtpUrl === null || config.smtpFrom === null)
    return { ok: false, httpStatus: null, error: "no SMTP server configured: set REPARO_SMTP_URL and REPARO_SMTP_FROM" };
  try {
    const transport = nodemailer.createTransport(smtpOptions(config.smtpUrl));
    try {
      await transport.sendMail({ from: config.smtpFrom, to: channel.address, subject: n.subject, text: textWithLink(n) });
    } finally {
      transport.close();
    }
    return { ok: true, httpStatus: null, error: null };
  } catch (e) {
    return { ok: false, httpStatus: null, error: e instanceof Error ? e.message : String(e) };
  }
}
