import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as notices from "@/app/api/v1/incidents/[id]/notices/route";
import * as acks from "@/app/api/v1/acks/[token]/route";
import type { Actor } from "../auth/roles";
import { statusOfError } from "../http/route";
import { getIncident } from "../incidents/get-incident";
import { openIncident } from "../incidents/open-incident";
import { overrideValidation } from "../incidents/override-validation";
import { resolveIncident } from "../incidents/resolve-incident";
import { markUnits } from "../repair/mark-units";
import { COMMANDER, OPERATOR, STG } from "../repair/testing/journey-steps";
import { pairsHeldByOpenIncidents } from "../repositories/incidents/incidents";
import { abandonIncident } from "../incidents/abandon-incident";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { acknowledgeNotice, readAcknowledgement } from "./acknowledge-notice";
import { ackKey, ackTokenOf } from "./ack-token";
import { deliverNotices } from "./deliver-notices";
import { getIncidentNotices } from "./get-incident-notices";
import { readNotifyConfig } from "./notify-config";
import { sendNotice } from "./send-notice";

const SECRET = "a-notice-secret-of-some-length";
const ANONYMOUS: Actor = { id: "anonymous", role: "viewer", source: "anonymous", namespaces: [] };
const NOW = () => new Date();
const EXPORT = "job:finance:weekly_revenue_export";

/** A local webhook receiver: every body and its signature, answered 204. */
function receiver() {
  const got: { body: string; signature: string | undefined; json: { recipient: string; text: string; ackUrl: string; units: { name: string }[] } }[] = [];
  const server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => {
      got.push({ body: data, signature: req.headers["reparo-signature"] as string | undefined, json: JSON.parse(data) });
      res.statusCode = 204;
      res.end();
    });
  });
  return {
    got,
    start: () => new Promise<string>((r) => server.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/notices`))),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A real SMTP server (npm smtp-server), keeping every message it accepts. */
function smtp() {
  const mails: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, done) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString()));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  return {
    mails,
    start: () => new Promise<number>((r) => server.listen(0, "127.0.0.1", () => r((server.server.address() as AddressInfo).port))),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function call(
  handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>,
  path: string,
  params: Record<string, string>,
  body?: unknown,
) {
  const req = new Request(`http://console.test${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { host: "console.test", "content-type": "application/json", "x-reparo-user": OPERATOR.id },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return handler(req, { params: Promise.resolve(params) });
}

const ENV = ["DATABASE_URL", "REPARO_NOTIFY_WEBHOOK_URL", "REPARO_NOTIFY_WEBHOOK_SECRET", "REPARO_SMTP_URL", "REPARO_SMTP_FROM"] as const;

describe.each(providersUnderTest())("the communication step on the demo world (%s)", (provider) => {
  let t: TestDatabase;
  const hook = receiver();
  const mail = smtp();
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  let incidentId = "";

  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
    process.env.REPARO_NOTIFY_WEBHOOK_URL = await hook.start();
    process.env.REPARO_NOTIFY_WEBHOOK_SECRET = SECRET;
    process.env.REPARO_SMTP_URL = `smtp://127.0.0.1:${await mail.start()}`;
    process.env.REPARO_SMTP_FROM = "Reparo <reparo@example.com>";
  }, 300_000);
  afterAll(async () => {
    for (const k of ENV)
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    await Promise.all([hook.stop(), mail.stop()]);
    await t?.drop();
  });

  it("opening stg_orders 2026-08-17 tells the finance export's and the ML feature pipeline's owners their own units, signed, through the default webhook", async () => {
    const opened = await openIncident({ taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" }, OPERATOR, NOW(), t.db);
    incidentId = opened.id;
    // Queued with the incident (same transaction), nothing sent on the request.
    const queued = await getIncidentNotices(incidentId, NOW(), t.db);
    // The owners, and the consumers declared as reading what it reaches (lib/server/people).
    expect(queued.notices.map((n) => [n.recipientName, n.status, n.event]).sort()).toEqual([
      ["Churn model team", "queued", "opened"],
      ["Finance ledger (export recipient)", "queued", "opened"],
      ["Revenue dashboard", "queued", "opened"],
      ["finance-team", "queued", "opened"],
      ["ml-team", "queued", "opened"],
      ["orders-team", "queued", "opened"],
    ]);
    expect(hook.got).toHaveLength(0);

    expect(await deliverNotices(NOW(), t.db)).toEqual({ sent: 6, failed: 0, undelivered: 0 });
    const of = (name: string) => hook.got.find((g) => g.json.recipient === name)!;
    const finance = of("finance-team").json;
    // The demo's W34 file was never sent (it waits on the failed days): the finance team hears of the week, not of a delivery.
    expect(finance.text.split("\n").filter((l) => l.startsWith("- "))).toEqual(["- weekly_revenue_export 2026-W34"]);
    expect(finance.text).toContain("Since: 2026-08-18 02:07 UTC (detected).");
    expect(finance.text).toContain("ETA: no ETA until a plan is confirmed.");
    expect(finance.text).not.toMatch(/^- (revenue_daily|order_features|stg_orders)/m);
    const ml = of("ml-team").json;
    expect(ml.text.split("\n").filter((l) => l.startsWith("- "))).toEqual(["- build_order_features 2026-08-17", "- order_features 2026-08-17"]);
    expect(ml.text).not.toContain("weekly_revenue_export");
    expect(ml.text).not.toContain(SECRET);
    // Signed exactly like the alert webhook: t=<s>,v1=HMAC-SHA256("<t>.<body>").
    const { body, signature } = of("finance-team");
    const [tPart, v1] = signature!.split(",");
    const ts = tPart!.slice(2);
    expect(v1).toBe(`v1=${crypto.createHmac("sha256", SECRET).update(`${ts}.${body}`).digest("hex")}`);
    expect(finance.ackUrl).toMatch(/\/ack\/[A-Za-z0-9_-]{43}$/);
    // Delivered once: a second round (another console) finds nothing due.
    expect(await deliverNotices(NOW(), t.db)).toEqual({ sent: 0, failed: 0, undelivered: 0 });
    const sent = await t.db.auditEntry.findMany({ where: { incidentId, kind: "notice.sent" } });
    expect(sent.map((e) => JSON.parse(e.after).recipient)).toEqual(expect.arrayContaining(["finance-team", "ml-team", "orders-team"]));
    expect(sent).toHaveLength(6);
    const financeSent = JSON.parse(sent.find((e) => JSON.parse(e.after).recipient === "finance-team")!.after);
    expect(financeSent.channel).toMatch(/^webhook http:\/\/127\.0\.0\.1:\d+\/…$/); // the path left out: it may hold a secret
  });

  it("on demand: an edited message by e-mail over a real SMTP server, with the acknowledgement link", async () => {
    const res = await sendNotice(
      incidentId,
      { recipients: ["owner:finance-team"], text: "W34 will be re-sent tomorrow morning.", channel: { kind: "email", address: "finance-ops@example.com" } },
      COMMANDER,
      NOW(),
      t.db,
    );
    expect(res).toMatchObject({ queued: 1, unreachable: [] });
    expect(await deliverNotices(NOW(), t.db)).toEqual({ sent: 1, failed: 0, undelivered: 0 });
    expect(mail.mails).toHaveLength(1);
    expect(mail.mails[0]!.to).toEqual(["finance-ops@example.com"]);
    // Quoted-printable: soft line breaks joined again.
    const text = mail.mails[0]!.raw.replace(/=\r?\n/g, "");
    expect(text).toContain("W34 will be re-sent tomorrow morning.");
    expect(text).toMatch(/Acknowledge: http:\/\/localhost:\d+\/ack\/[A-Za-z0-9_-]{43}/);
  });

  it("an unreachable channel is retried with backoff, then shown undelivered with its error — never a 500, never dropped", async () => {
    await sendNotice(
      incidentId,
      { recipients: ["owner:ml-team"], text: "Features for 2026-08-17 are wrong.", channel: { kind: "webhook", url: "http://127.0.0.1:9/hook" } },
      COMMANDER,
      NOW(),
      t.db,
    );
    const retry = { maxAttempts: 2, baseDelayMs: 60_000 };
    expect(await deliverNotices(NOW(), t.db, readNotifyConfig(), retry)).toEqual({ sent: 0, failed: 1, undelivered: 0 });
    const failed = (await getIncidentNotices(incidentId, NOW(), t.db)).notices.find((n) => n.channel === "webhook http://127.0.0.1:9/…")!;
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.lastError).toBeTruthy();
    // Not due before its backoff has passed; due after.
    expect(await deliverNotices(NOW(), t.db, readNotifyConfig(), retry)).toEqual({ sent: 0, failed: 0, undelivered: 0 });
    expect(new Date(failed.nextAttemptAt!).getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(await deliverNotices(new Date(Date.now() + 61_000), t.db, readNotifyConfig(), retry)).toEqual({ sent: 0, failed: 0, undelivered: 1 });
    const undelivered = (await getIncidentNotices(incidentId, NOW(), t.db)).notices.find((n) => n.id === failed.id)!;
    expect(undelivered).toMatchObject({ status: "undelivered", attempts: 2, nextAttemptAt: null });
    const entries = await t.db.auditEntry.findMany({ where: { incidentId, kind: "notice.failed" }, orderBy: { seq: "asc" } });
    expect(entries.map((e) => JSON.parse(e.after).status)).toEqual(["failed", "undelivered"]);
    expect(entries[0]!.reason).toContain("could not tell ml-team through webhook http://127.0.0.1:9/…");
  });

  it("a bad channel or recipient is a 400 naming the field, and nothing is written", async () => {
    const before = await t.db.notice.count();
    // Another channel than the recipients' own is a commander's: an operator is refused, nothing queued.
    const operator = await sendNotice(
      incidentId,
      { text: "x", channel: { kind: "webhook", url: "https://elsewhere.example.com/hook" } },
      OPERATOR,
      NOW(),
      t.db,
    ).catch((e: unknown) => e);
    expect(statusOfError(operator)).toBe(403);
    expect((operator as Error).message).toContain("body.channel");
    const bad = await call(
      notices.POST,
      `/api/v1/incidents/${incidentId}/notices`,
      { id: incidentId },
      { text: "x", channel: { kind: "webhook", url: "ftp://nope" } },
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("body.channel.url");
    const mail = await call(
      notices.POST,
      `/api/v1/incidents/${incidentId}/notices`,
      { id: incidentId },
      { text: "x", channel: { kind: "email", address: "not-an-address" } },
    );
    expect(JSON.stringify(await mail.json())).toContain("body.channel.address");
    const nobody = await call(notices.POST, `/api/v1/incidents/${incidentId}/notices`, { id: incidentId }, { text: "x", recipients: ["owner:nobody"] });
    expect([nobody.status, JSON.stringify(await nobody.json())]).toEqual([400, expect.stringContaining("body.recipients")]);
    expect(await t.db.notice.count()).toBe(before);
  });

  it("the acknowledgement link records who and when, on the notice and in the audit log; an unknown token is a 404", async () => {
    const finance = (await getIncidentNotices(incidentId, NOW(), t.db)).notices.find((n) => n.recipientName === "finance-team" && n.event === "opened")!;
    const token = ackTokenOf(await ackKey(t.db), finance.id);
    expect(await readAcknowledgement(token, t.db)).toMatchObject({ recipientName: "finance-team", acknowledgedAt: null });
    const acked = await acknowledgeNotice(token, "Ana (finance)", ANONYMOUS, NOW(), t.db);
    expect(acked).toMatchObject({ acknowledgedBy: "Ana (finance)" });
    // Again: the first acknowledgement stands.
    expect((await acknowledgeNotice(token, "someone else", ANONYMOUS, NOW(), t.db)).acknowledgedBy).toBe("Ana (finance)");
    const entries = await t.db.auditEntry.findMany({ where: { incidentId, kind: "notice.acknowledged" } });
    expect(entries.map((e) => JSON.parse(e.after))).toEqual([{ noticeId: finance.id, recipient: "finance-team", by: "Ana (finance)" }]);
    const missing = await call(acks.GET, "/api/v1/acks/x", { token: "A".repeat(43) });
    expect(missing.status).toBe(404);
    await expect(readAcknowledgement("B".repeat(43), t.db)).rejects.toSatisfy((e) => statusOfError(e) === 404);
  });

  // The demo's delivered file the failures reach is W33 (sent 2026-08-17 06:01, built on the duplicated 2026-08-10);
  // W34 was never sent. An incident on that week's export, its unit marked skipped so that validation passes:
  const exportIncident = async (reason: string) => {
    const incident = await openIncident({ taskNodeId: EXPORT, units: ["2026-W33"], reason, rootCause: "as_given" }, OPERATOR, NOW(), t.db);
    await markUnits(
      incident.id,
      { kind: "skipped", taskNodeId: EXPORT, units: ["2026-W33"], reason: "finance re-imports the week by hand" },
      COMMANDER,
      NOW(),
      t.db,
    );
    return incident;
  };

  it("the resolve guard: refused (409) while the W33 export is neither re-delivered nor acknowledged; acknowledged, it resolves", async () => {
    for (const held of await pairsHeldByOpenIncidents(t.db)) await abandonIncident(held.id, "a fresh exercise on the same failure", COMMANDER, NOW(), t.db);
    const incident = await exportIncident("W33 carries the duplicated 2026-08-10");
    const refused = await resolveIncident(incident.id, "omission recorded", COMMANDER, NOW(), t.db).catch((e: unknown) => e);
    expect(statusOfError(refused)).toBe(409);
    expect((refused as Error).message).toBe(
      "cannot resolve: weekly_revenue_export 2026-W33 (sent to sftp://finance-ledger.internal/inbound/weekly_revenue_2026-W33.csv on 2026-08-17 06:01 UTC) — delivered outside and neither re-delivered since the repair nor acknowledged by its consumer. Re-deliver it, have its consumer acknowledge the notice, or a commander may override with a reason.",
    );
    expect((await getIncidentNotices(incident.id, NOW(), t.db)).outstandingDeliveries).toEqual([expect.stringMatching(/^weekly_revenue_export 2026-W33 /)]);
    // The finance team, who owns the export, acknowledges: it is not the file's consumer — the hold stays.
    await deliverNotices(NOW(), t.db);
    const notices = (await getIncidentNotices(incident.id, NOW(), t.db)).notices;
    const finance = notices.find((n) => n.recipientName === "finance-team")!;
    expect(finance.text).toContain(
      "- weekly_revenue_export 2026-W33 (2026-W33 already sent to sftp://finance-ledger.internal/inbound/weekly_revenue_2026-W33.csv on 2026-08-17 06:01 UTC)",
    );
    await acknowledgeNotice(ackTokenOf(await ackKey(t.db), finance.id), undefined, OPERATOR, NOW(), t.db);
    expect((await getIncidentNotices(incident.id, NOW(), t.db)).outstandingDeliveries).toEqual([expect.stringMatching(/^weekly_revenue_export 2026-W33 /)]);
    // The finance ledger, the export's recipient, acknowledges the notice naming W33: the hold lifts.
    const ledger = notices.find((n) => n.recipientName === "Finance ledger (export recipient)")!;
    expect(ledger.text).toContain("weekly_revenue_export 2026-W33");
    await acknowledgeNotice(ackTokenOf(await ackKey(t.db), ledger.id), "the ledger's controller", ANONYMOUS, NOW(), t.db);
    expect((await getIncidentNotices(incident.id, NOW(), t.db)).outstandingDeliveries).toEqual([]);
    await resolveIncident(incident.id, "omission recorded; the finance ledger acknowledged W33", COMMANDER, NOW(), t.db);
    expect((await getIncident(incident.id, t.db)).status).toBe("resolved");
  });

  it("the resolve guard: a re-delivery after the repair lifts the hold; a commander's reasoned override passes it, audited", async () => {
    const incident = await exportIncident("W33 again");
    expect((await getIncidentNotices(incident.id, NOW(), t.db)).outstandingDeliveries).toHaveLength(1);
    const exportTask = await t.db.task.findUniqueOrThrow({ where: { nodeId: "job:finance:weekly_revenue_export" } });
    const run = await t.db.run.create({ data: { kind: "repair", status: "succeeded", incidentId: incident.id, startedAt: new Date(Date.now() - 1_000) } });
    await t.db.externalDelivery.create({
      data: {
        taskId: exportTask.id,
        unitKey: "2026-W33",
        runId: run.id,
        idempotencyKey: "redelivery-w33",
        destination: "finance-ledger",
        payload: "{}",
        sentAt: NOW(),
      },
    });
    expect((await getIncidentNotices(incident.id, NOW(), t.db)).outstandingDeliveries).toEqual([]);
    // Without them (a repair run is only what this test needed of one), the hold is back.
    await t.db.externalDelivery.deleteMany({ where: { idempotencyKey: "redelivery-w33" } });
    await t.db.run.delete({ where: { id: run.id } });
    const refused = await resolveIncident(incident.id, "omission recorded", COMMANDER, NOW(), t.db).catch((e: unknown) => e);
    expect(statusOfError(refused)).toBe(409);
    await overrideValidation(incident.id, "finance will re-import W33 from the ledger themselves", COMMANDER, NOW(), t.db);
    const overridden = await t.db.auditEntry.findFirstOrThrow({ where: { incidentId: incident.id, kind: "deliveries.overridden" } });
    expect(JSON.parse(overridden.before).unacknowledged).toEqual([expect.stringMatching(/^weekly_revenue_export 2026-W33 /)]);
    expect((await getIncident(incident.id, t.db)).status).toBe("resolved");
  });
});
