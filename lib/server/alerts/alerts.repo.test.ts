import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodAwareCompleteness, reconcile } from "@/lib/domain/validation";
import { abandonIncident } from "../incidents/abandon-incident";
import { openIncident } from "../incidents/open-incident";
import { COMMANDER, OPERATOR } from "../repair/testing/journey-steps";
import { METER_DATASETS as D } from "../executor/task-code/node-ids";
import { METER_PERIODS, METER_REGIONS } from "../executor/task-code/meters/meter-source";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { readAlertConfig } from "./alert-config";
import { deliverAlerts } from "./deliver-alerts";
import { evaluateAlertsNow } from "./evaluate-alerts-now";
import { listAlerts } from "./list-alerts";
import { AlertsQuerySchema } from "@/lib/contracts/alerts";

const NOW = new Date("2026-09-01T00:00:00Z");
const BASELINE_NORTH = 1212.55;

/** A local webhook that answers 503 to the first `failFirst` requests, then 204. */
function webhook(failFirst: number, redirect = false) {
  const bodies: unknown[] = [];
  const raw: { body: string; signature: string | undefined }[] = [];
  let seen = 0;
  const server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => {
      seen += 1;
      bodies.push(JSON.parse(data));
      raw.push({ body: data, signature: req.headers["reparo-signature"] as string | undefined });
      if (redirect) {
        res.statusCode = 302;
        res.setHeader("location", "http://127.0.0.1:9/elsewhere");
      } else res.statusCode = seen <= failFirst ? 503 : 204;
      res.end();
    });
  });
  return {
    bodies,
    raw,
    start: () =>
      new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(providersUnderTest())("alerts from the data on the demo world (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 300_000);
  afterAll(async () => t?.drop());

  it("seed 003: the half-written 2026-07 passes the row-count and completeness checks while serving is wrong; per-unit reconciliation flags it", async () => {
    const raw = await t.db.warehouseRow.findMany({ where: { dataset: { nodeId: D.raw } }, select: { unitKey: true, payload: true } });
    const observed = raw.map((r) => ({ group: (JSON.parse(r.payload) as { region: string }).region, period: r.unitKey }));
    expect(raw.length).toBe(2320);
    expect(reconcile(raw.length, 2400, 0.05).verdict).toBe("within_band");
    expect(periodAwareCompleteness(observed, METER_REGIONS, METER_PERIODS).complete).toBe(true);
    const serving = await t.db.warehouseRow.findMany({ where: { dataset: { nodeId: D.serving } }, select: { payload: true } });
    const north = serving.map((s) => JSON.parse(s.payload) as { region: string; average_m3: number }).find((s) => s.region === "north")!;
    expect(Math.round((north.average_m3 - BASELINE_NORTH) * 100) / 100).toBe(-121.82);

    const alerts = await evaluateAlertsNow(t.db, NOW, readAlertConfig({}));
    const outOfBand = alerts.filter((a) => a.rule === "row_count_out_of_band" && a.datasetNodeId.includes("meter"));
    expect(outOfBand.map((a) => [a.datasetName, a.units, a.details]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ["meter_readings_deduped", ["2026-07"], ["2026-07: 120 rows for a source count of 200 (−40%)"]],
      ["meter_readings_screened", ["2026-07"], ["2026-07: 120 rows for a source count of 200 (−40%)"]],
    ]);
    const landing = alerts.find((a) => a.rule === "task_failed" && a.datasetName === "meter_readings_raw")!;
    expect(landing).toMatchObject({ source: "task", taskNodeId: "job:meters:land_meter_readings", units: ["2026-07"] });
  });

  it("seed 000: the demo's orders failures as data alerts, independent of run status", async () => {
    const alerts = await evaluateAlertsNow(t.db, NOW, readAlertConfig({}));
    const of = (rule: string, dataset: string) => alerts.find((a) => a.rule === rule && a.datasetName === dataset)?.units;
    expect(of("missing_past_deadline", "revenue_daily")).toEqual(["2026-08-17", "2026-08-23"]);
    expect(of("published_more_than_once", "stg_orders")).toEqual(["2026-08-10"]);
    expect(of("row_count_out_of_band", "fct_orders")).toEqual(["2026-08-10"]);
    expect(of("task_failed", "stg_orders")).toEqual(["2026-08-17", "2026-08-23"]);
    expect(of("period_incomplete", "revenue_daily")).toEqual(["2026-08-17", "2026-08-23"]);
    // A two-day grace moves 2026-08-23's deadline past the check: it is not late yet on 08-25.
    const graced = await evaluateAlertsNow(
      t.db,
      new Date("2026-08-25T12:00:00Z"),
      readAlertConfig({ REPARO_ALERT_DEADLINES: JSON.stringify({ "dataset:warehouse:revenue_daily": 48 }) }),
    );
    expect(graced.find((a) => a.rule === "missing_past_deadline" && a.datasetName === "revenue_daily")?.units).toEqual(["2026-08-17"]);
  });

  it("root cause first: the demo's alerts come in at most 8 groups, each alert in exactly one, each named by its root units", async () => {
    const page = await listAlerts(NOW, t.db, { limit: 5000 });
    const all = page.alerts.map((a) => a.id).sort();
    expect(page.groups.length).toBeGreaterThan(0);
    expect(page.groups.length).toBeLessThanOrEqual(8);
    expect(page.groups.flatMap((g) => g.members.map((m) => m.id)).sort()).toEqual(all);
    const byTitle = (re: RegExp) => page.groups.find((g) => re.test(g.title));
    // stg_orders' two failed days: the task alert, the missing and incomplete downstream ones — one group.
    const failed = byTitle(/^stg_orders 2026-08-17 half-written \(20 rows left by failed tries\), 2026-08-23 failed$/)!;
    expect(failed.roots).toEqual([
      expect.objectContaining({
        taskNodeId: "job:orders:stg_orders",
        units: [expect.objectContaining({ key: "2026-08-17", state: "failed" }), expect.objectContaining({ key: "2026-08-23", state: "failed" })],
      }),
    ]);
    expect(failed.members.map((m) => `${m.rule} ${m.datasetName}`)).toEqual(
      expect.arrayContaining(["task_failed stg_orders", "missing_past_deadline revenue_daily", "period_incomplete revenue_daily"]),
    );
    expect(failed.severity).toBe("critical");
    expect(failed.incidentHref).toBe("/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-17%2C2026-08-23");
    // The duplicated 2026-08-10: its copies, fct_orders' divergence, and the W33 export already sent outside.
    const duplicated = byTitle(/^stg_orders 2026-08-10: duplicated$/)!;
    expect(duplicated.members.map((m) => `${m.rule} ${m.datasetName}`)).toEqual(
      expect.arrayContaining(["published_more_than_once stg_orders", "row_count_out_of_band fct_orders", "consumed_outside weekly_revenue_export"]),
    );
    expect(duplicated.deliveredOutside).toEqual([expect.stringMatching(/^weekly_revenue_export 2026-W33 sent to /)]);
    expect(duplicated.severityWhy).toContain("1 unit already delivered outside the platform");
    expect(duplicated.affected.find((a) => a.name === "running_balance")?.units).toBe(16);
    // The half-written meters landing and everything it made divergent: one group.
    const meters = byTitle(/^land_meter_readings 2026-07: half-written/)!;
    expect(meters.members.map((m) => m.datasetName)).toEqual(
      expect.arrayContaining(["meter_readings_raw", "meter_readings_screened", "meter_readings_deduped"]),
    );
    // The consumers' alert: a suspect unit already delivered outside.
    const told = page.alerts.find((a) => a.rule === "consumed_outside")!;
    expect(told).toMatchObject({ datasetName: "weekly_revenue_export", units: ["2026-W33"], severity: "critical" });
    // running_balance carries 2026-08-10 forward: its alerts lead to all three days, a group of their own.
    expect(
      byTitle(/^stg_orders 2026-08-10 duplicated, 2026-08-17 half-written/)!
        .members.map((m) => `${m.rule} ${m.datasetName}`)
        .sort(),
    ).toEqual(["missing_past_deadline running_balance", "period_incomplete running_balance"]);
    expect(told.title).toBe("1 unit already delivered outside while it is wrong: tell its consumers");
  });

  it("a read with nothing changed answers the groups already walked; an incident opened on a root is seen at once", async () => {
    const first = await listAlerts(NOW, t.db, { limit: 5000 });
    const again = await listAlerts(NOW, t.db, { limit: 5000 });
    expect(again.groups).toBe(first.groups);
    const failed = (page: typeof first) =>
      page.groups.find((g) => g.roots.some((r) => r.taskNodeId === "job:orders:stg_orders" && r.units.some((u) => u.key === "2026-08-17")))!;
    expect(failed(first).handledBy).toBeNull();
    const incident = await openIncident(
      { taskNodeId: "job:orders:stg_orders", units: ["2026-08-17"], reason: "grouping kept per snapshot" },
      OPERATOR,
      NOW,
      t.db,
    );
    try {
      const after = await listAlerts(NOW, t.db, { limit: 5000 });
      expect(after.groups).not.toBe(first.groups);
      expect(failed(after).handledBy).toEqual({ id: incident.id, title: incident.title });
    } finally {
      await abandonIncident(incident.id, "the test's incident ends with it", COMMANDER, NOW, t.db);
    }
  });

  it("the alerts API lists the first `limit` rows and counts them all", async () => {
    const all = await evaluateAlertsNow(t.db, NOW, readAlertConfig({}));
    const page = await listAlerts(NOW, t.db, { limit: 3 });
    expect(page.alerts.map((a) => a.id)).toEqual(all.slice(0, 3).map((a) => a.id));
    expect(page.omitted).toBe(all.length - 3);
    expect(page.counts.task + page.counts.data).toBe(all.length);
    expect(page.counts.task).toBe(all.filter((a) => a.source === "task").length);
    expect(page.alerts[0]!.unitCount).toBe(all[0]!.units.length);
    expect(AlertsQuerySchema.safeParse({ limit: "0" }).success).toBe(false);
    expect(AlertsQuerySchema.parse({})).toEqual({ limit: 500 });
  });

  it("the webhook's path (where Slack, Discord and Teams keep its token) is shown to admins only", async () => {
    const saved = process.env.REPARO_ALERT_WEBHOOK_URL;
    process.env.REPARO_ALERT_WEBHOOK_URL = "https://hooks.slack.com/services/T0001/B0001/secretsecretsecret";
    try {
      const anonymous = await listAlerts(NOW, t.db, { limit: 1 });
      expect(anonymous.webhook).toEqual({ configured: true, target: "https://hooks.slack.com" });
      const operator = await listAlerts(NOW, t.db, { limit: 1 }, { role: "operator" });
      expect(JSON.stringify(operator)).not.toContain("secretsecret");
      const admin = await listAlerts(NOW, t.db, { limit: 1 }, { role: "admin" });
      expect(admin.webhook.target).toBe("https://hooks.slack.com/services/T0001/B0001/secretsecretsecret");
    } finally {
      if (saved === undefined) delete process.env.REPARO_ALERT_WEBHOOK_URL;
      else process.env.REPARO_ALERT_WEBHOOK_URL = saved;
    }
  });

  it("the webhook gets one JSON body per alert, retried with backoff on 503, every try recorded, and not resent", async () => {
    const hook = webhook(2);
    const url = await hook.start();
    try {
      const config = readAlertConfig({ REPARO_ALERT_WEBHOOK_URL: url });
      const sleeps: number[] = [];
      const retry = { maxTries: 4, baseDelayMs: 100, timeoutMs: 2_000, sleep: async (ms: number) => void sleeps.push(ms) };
      const expected = (await evaluateAlertsNow(t.db, NOW, config)).length;
      const first = await deliverAlerts(NOW, t.db, config, retry);
      expect(first).toEqual({ sent: expected, failed: 0, skipped: 0, tries: expected + 2 });
      expect(sleeps.slice(0, 2)).toEqual([100, 200]);
      const rows = await t.db.alertDelivery.findMany({ orderBy: [{ at: "asc" }, { tryNumber: "asc" }] });
      expect(rows.slice(0, 3).map((r) => [r.tryNumber, r.status, r.httpStatus])).toEqual([
        [1, "failed", 503],
        [2, "failed", 503],
        [3, "delivered", 204],
      ]);
      expect(hook.bodies[0]).toMatchObject({ type: "reparo.alert", alert: { source: "task", rule: "task_failed" } });
      const again = await deliverAlerts(NOW, t.db, config, retry);
      expect(again).toEqual({ sent: 0, failed: 0, skipped: expected, tries: 0 });
    } finally {
      await hook.stop();
    }
  });

  it("deliveries are signed (HMAC-SHA256 over timestamp.body), a redirect is not followed, and the URL's secrets are never stored", async () => {
    await t.db.alertDelivery.deleteMany({});
    const hook = webhook(0, true);
    const url = (await hook.start()).replace("http://", "http://user:pw@") + "?token=s3cret";
    try {
      const config = readAlertConfig({ REPARO_ALERT_WEBHOOK_URL: url, REPARO_ALERT_WEBHOOK_SECRET: "whsec-0123456789abcdef" });
      const retry = { maxTries: 3, baseDelayMs: 1, timeoutMs: 2_000, sleep: async () => undefined };
      const r = await deliverAlerts(NOW, t.db, config, retry);
      expect(r.sent).toBe(0);
      expect(r.tries).toBe(r.failed); // a 302 is final: one try per alert, nothing followed
      const { body, signature } = hook.raw[0]!;
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature ?? "");
      expect(m).not.toBeNull();
      expect(m![2]).toBe(crypto.createHmac("sha256", "whsec-0123456789abcdef").update(`${m![1]}.${body}`).digest("hex"));
      const rows = await t.db.alertDelivery.findMany();
      expect(rows[0]!.error).toMatch(/302 \(a redirect: not followed\)/);
      for (const row of rows) expect(row.url).not.toMatch(/s3cret|pw@/);
    } finally {
      await hook.stop();
    }
  });
});
