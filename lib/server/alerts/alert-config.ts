const HOUR = 3_600_000;
export const DEFAULT_GRACE_HOURS = 6;

export interface AlertConfig {
  webhookUrl: string | null;
  /** REPARO_ALERT_WEBHOOK_SECRET: signs every delivery (Reparo-Signature); null = unsigned. */
  webhookSecret: string | null;
  defaultGraceMs: number;
  /** Dataset node id → grace after the window closes, in ms. */
  graceByDataset: Map<string, number>;
}

/**
 * From the environment (docs/alerts.md):
 *   REPARO_ALERT_WEBHOOK_URL      where alerts are POSTed (unset: no webhook)
 *   REPARO_ALERT_WEBHOOK_SECRET   signs each delivery (Reparo-Signature: t=…,v1=HMAC-SHA256)
 *   REPARO_ALERT_GRACE_HOURS      how long after its window closes a unit may still arrive (default 6)
 *   REPARO_ALERT_DEADLINES        JSON {"dataset:warehouse:revenue_daily": 2, ...}: hours per dataset
 * A malformed value stops with a message naming the variable, rather than silently alerting late.
 */
export function readAlertConfig(env: Readonly<Record<string, string | undefined>> = process.env): AlertConfig {
  const url = env.REPARO_ALERT_WEBHOOK_URL?.trim() || null;
  if (url !== null && !/^https?:\/\//.test(url)) throw new Error(`REPARO_ALERT_WEBHOOK_URL must be an http(s) URL, got "${url}"`);
  const grace = env.REPARO_ALERT_GRACE_HOURS?.trim();
  const hours = grace ? Number(grace) : DEFAULT_GRACE_HOURS;
  if (!Number.isFinite(hours) || hours < 0) throw new Error(`REPARO_ALERT_GRACE_HOURS must be a number of hours ≥ 0, got "${grace}"`);
  const graceByDataset = new Map<string, number>();
  if (env.REPARO_ALERT_DEADLINES?.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.REPARO_ALERT_DEADLINES);
    } catch {
      throw new Error('REPARO_ALERT_DEADLINES must be JSON like {"dataset:warehouse:revenue_daily": 2}');
    }
    for (const [node, h] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof h !== "number" || h < 0) throw new Error(`REPARO_ALERT_DEADLINES["${node}"] must be a number of hours ≥ 0`);
      graceByDataset.set(node, h * HOUR);
    }
  }
  const secret = env.REPARO_ALERT_WEBHOOK_SECRET?.trim() || null;
  if (secret !== null && secret.length < 16) throw new Error("REPARO_ALERT_WEBHOOK_SECRET must be at least 16 characters");
  return { webhookUrl: url, webhookSecret: secret, defaultGraceMs: hours * HOUR, graceByDataset };
}

/** The webhook shown without credentials or query string. */
export function describeTarget(url: string | null): string | null {
  if (url === null) return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return null;
  }
}
