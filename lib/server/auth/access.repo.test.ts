import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as postLineage } from "@/app/api/v1/lineage/route";
import { POST as postIncident } from "@/app/api/v1/incidents/route";
import { GET as getOverview } from "@/app/api/v1/overview/route";
import { GET as listTokensRoute, POST as postToken } from "@/app/api/v1/access/tokens/route";
import { POST as revokeRoute } from "@/app/api/v1/access/tokens/[name]/revoke/route";
import { GET as listUsersRoute, POST as postUser } from "@/app/api/v1/access/users/route";
import { PATCH as patchUser } from "@/app/api/v1/access/users/[id]/route";
import { GET as me } from "@/app/api/auth/me/route";
import { GET as auditRoute } from "@/app/api/v1/audit/route";
import { POST as declareReplaceRoute } from "@/app/api/v1/incidents/[id]/declare-replace/route";
import { POST as declareCleanedRoute } from "@/app/api/v1/incidents/[id]/declare-cleaned/route";
import { POST as cleanUnitRoute } from "@/app/api/v1/incidents/[id]/clean-unit/route";
import { POST as scopeRoute } from "@/app/api/v1/incidents/[id]/scope/route";
import { POST as marksRoute } from "@/app/api/v1/incidents/[id]/marks/route";
import { POST as confirmPlanRoute } from "@/app/api/v1/incidents/[id]/plan/route";
import { createIncident } from "../repositories/incidents/incidents";
import { inTransaction } from "../repositories/database";
import { GET as link } from "@/app/api/auth/link/route";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { addUser, createToken } from "../access/manage-access";
import { sealSession, SESSION_COOKIE } from "./session-cookie";
import { signInLink } from "./sign-in-link";

/**
 * Production mode (no REPARO_DEMO) on a fresh database: who may do what, measured at the routes
 * a browser or a producer calls. The bars of issue 13's first list.
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const exec = promisify(execFile);
const root = path.resolve(__dirname, "../../..");
const ENV_KEYS = ["REPARO_DEMO", "REPARO_PROXY_SECRET", "REPARO_PUBLIC_URL", "DATABASE_URL"] as const;
const EVENT = {
  eventType: "COMPLETE",
  eventTime: "2026-08-18T02:10:00Z",
  producer: "https://example.com/producer",
  schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
  run: { runId: "0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a5b" },
  job: { namespace: "orders", name: "load" },
  inputs: [],
  outputs: [{ namespace: "warehouse", name: "orders" }],
};

let t: TestDatabase;
const saved: Record<string, string | undefined> = {};

function call(
  handler: Handler,
  init: { method?: string; path?: string; body?: unknown; headers?: Record<string, string>; params?: Record<string, string> } = {},
) {
  const headers = { "content-type": "application/json", ...init.headers };
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return handler(new Request(`http://127.0.0.1:3000${init.path ?? "/api/v1/x"}`, { method: init.method ?? "GET", body, headers }), {
    params: Promise.resolve(init.params ?? {}),
  });
}

describe("identity and access on a fresh production database", () => {
  beforeAll(async () => {
    for (const k of ENV_KEYS) saved[k] = process.env[k];
    t = await createTestDatabase("sqlite");
  });
  beforeEach(() => {
    delete process.env.REPARO_DEMO;
    delete process.env.REPARO_PROXY_SECRET;
    delete process.env.REPARO_PUBLIC_URL;
    process.env.DATABASE_URL = t.target.url;
  });
  afterEach(() => {
    for (const k of ENV_KEYS)
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
  });
  afterAll(async () => t.drop());

  it("anonymous: reads answer, every mutation is a 401 with a Bearer challenge, and nothing is written", async () => {
    expect((await call(getOverview)).status).toBe(200);
    const res = await call(postLineage, { method: "POST", body: EVENT });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await call(postIncident, { method: "POST", body: { title: "x", reason: "because" } })).status).toBe(401);
    expect(await t.db.ingestedEvent.count()).toBe(0);
    expect((await (await call(me)).json()).source).toBe("anonymous");
  });

  it("REPARO_ANONYMOUS_READ=0: anonymous reads are a 401 too, except who-am-I", async () => {
    process.env.REPARO_ANONYMOUS_READ = "0";
    try {
      expect((await call(getOverview)).status).toBe(401);
      expect((await call(me)).status).toBe(200);
    } finally {
      delete process.env.REPARO_ANONYMOUS_READ;
    }
  });

  it("a client-sent identity header is not trusted without the proxy secret; with it, the named user's role holds", async () => {
    await addUser(t.db, { id: "cmdr", role: "commander" }, { actor: "test", actorRole: "admin", reason: "setup" });
    expect((await call(postLineage, { method: "POST", body: EVENT, headers: { "x-reparo-user": "cmdr" } })).status).toBe(401);
    process.env.REPARO_PROXY_SECRET = "s3cret-between-proxy-and-console";
    expect((await call(postLineage, { method: "POST", body: EVENT, headers: { "x-reparo-user": "cmdr", "x-reparo-proxy-secret": "wrong" } })).status).toBe(401);
    const ok = await call(me, { headers: { "x-reparo-user": "cmdr", "x-reparo-proxy-secret": "s3cret-between-proxy-and-console" } });
    expect(await ok.json()).toMatchObject({ id: "cmdr", role: "commander", source: "proxy" });
  });

  it("`npm run users -- add X --role admin` makes the first admin, audited; the admin API then works with that admin's session", async () => {
    const env = { ...process.env, DATABASE_URL: t.target.url };
    const { stdout } = await exec("npx", ["tsx", "scripts/users.ts", "add", "ada", "--role", "admin", "--name", "Ada Admin"], { cwd: root, env });
    expect(stdout).toContain("added ada (Ada Admin) as admin");
    const listed = await exec("npx", ["tsx", "scripts/users.ts", "list"], { cwd: root, env });
    expect(listed.stdout).toMatch(/^ada\tadmin\tall namespaces\tAda Admin$/m);
    const entry = await t.db.auditEntry.findFirst({ where: { kind: "user.added" }, orderBy: { seq: "desc" } });
    expect(entry?.actor).toMatch(/^cli:/);
    const { value } = await sealSession(t.db, { userId: "ada", via: "link" });
    const cookie = { cookie: `${SESSION_COOKIE}=${value}` };
    expect((await call(listUsersRoute, { headers: cookie })).status).toBe(200);
    // A commander is not an admin.
    expect((await call(listUsersRoute, { headers: { "x-reparo-user": "cmdr" } })).status).toBe(401);
    const add = await call(postUser, {
      method: "POST",
      headers: cookie,
      body: { id: "ola", role: "operator", namespaces: ["orders"], reason: "on call for orders" },
    });
    expect(add.status).toBe(200);
    // An admin manages access everywhere: an admin limited to a namespace could lift its own limit.
    const limitedAdmin = await call(postUser, {
      method: "POST",
      headers: cookie,
      body: { id: "lim", role: "admin", namespaces: ["orders"], reason: "limited admin" },
    });
    expect(limitedAdmin.status).toBe(400);
    expect((await limitedAdmin.json()).message).toMatch(/^namespaces: an admin manages access everywhere/);
    // Ids the audit log gives machines are not people's.
    for (const id of ["token:airflow", "cli:root", "anonymous", "Token:x"]) {
      const machine = await call(postUser, { method: "POST", headers: cookie, body: { id, role: "viewer", reason: "looks like a machine" } });
      expect(machine.status, id).toBe(400);
      expect((await machine.json()).message).toMatch(/^body\.id: .* reads as a machine in the audit log/);
    }
    // The last admin cannot demote themself: nobody could manage access afterwards.
    const demote = await call(patchUser, { method: "PATCH", headers: cookie, params: { id: "ada" }, body: { role: "viewer", reason: "oops" } });
    expect(demote.status).toBe(409);
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  });

  it("an ingest token posts an OpenLineage event (200), cannot open an incident (403), stops working once revoked (401); its secret is never listed", async () => {
    const { value } = await sealSession(t.db, { userId: "ada", via: "link" });
    const cookie = { cookie: `${SESSION_COOKIE}=${value}` };
    const created = await call(postToken, { method: "POST", headers: cookie, body: { name: "airflow-prod", scope: "ingest", reason: "the Airflow provider" } });
    expect(created.status).toBe(201);
    const { secret } = (await created.json()) as { secret: string };
    expect(secret).toMatch(/^rpt_[A-Za-z0-9_-]{43}$/);
    const bearer = { authorization: `Bearer ${secret}` };
    expect((await call(postLineage, { method: "POST", body: EVENT, headers: bearer })).status).toBe(200);
    expect((await t.db.ingestedEvent.findFirst({ orderBy: { receivedAt: "desc" } }))?.submittedBy).toBe("token:airflow-prod");
    const refused = await call(postIncident, { method: "POST", body: { title: "x", reason: "because" }, headers: bearer });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toContain("scope ingest");
    const listed = await (await call(listTokensRoute, { headers: cookie })).text();
    expect(listed).toContain("airflow-prod");
    expect(listed).not.toContain(secret);
    expect(listed).toMatch(/"lastUsedAt":"20/);
    expect((await call(revokeRoute, { method: "POST", headers: cookie, params: { name: "airflow-prod" }, body: { reason: "rotated" } })).status).toBe(200);
    const after = await call(postLineage, { method: "POST", body: { ...EVENT, eventTime: "2026-08-18T02:11:00Z" }, headers: bearer });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
    // Another scheme is not a token: the request is anonymous (a 401 to a change), and a malformed Bearer is refused as such.
    expect((await call(postLineage, { method: "POST", body: EVENT, headers: { authorization: "Basic Zm9vOmJhcg==" } })).headers.get("www-authenticate")).toBe(
      'Bearer realm="reparo"',
    );
    expect(
      (await call(postLineage, { method: "POST", body: EVENT, headers: { authorization: "Bearer not a token" } })).headers.get("www-authenticate"),
    ).toContain("invalid_request");
  });

  it("a token limited to a namespace: events of that namespace accepted, others refused naming the field", async () => {
    const { secret } = await createToken(
      t.db,
      { name: "orders-only", scope: "ingest", namespaces: ["orders", "warehouse"] },
      { actor: "ada", actorRole: "admin", reason: "orders team" },
    );
    const bearer = { authorization: `Bearer ${secret}` };
    expect(
      (await call(postLineage, { method: "POST", body: { ...EVENT, run: { runId: "0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a5c" } }, headers: bearer })).status,
    ).toBe(200);
    const other = await call(postLineage, { method: "POST", body: { ...EVENT, job: { namespace: "meters", name: "load" } }, headers: bearer });
    expect(other.status).toBe(400);
    expect((await other.json()).message).toContain("body.job.namespace: namespace meters is outside this token's namespaces");
    // The parent run facet names the run's pipeline: an orders token cannot make a meters pipeline through it.
    const parent = {
      parent: {
        _producer: "https://example.com/producer",
        _schemaURL: "https://openlineage.io/spec/facets/1-1-0/ParentRunFacet.json#/$defs/ParentRunFacet",
        run: { runId: "0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a60" },
        job: { namespace: "meters", name: "meters_dag" },
      },
    };
    const pipelines = await t.db.pipeline.count();
    const viaParent = await call(postLineage, {
      method: "POST",
      body: { ...EVENT, run: { runId: "0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a61", facets: parent } },
      headers: bearer,
    });
    expect(viaParent.status).toBe(400);
    expect((await viaParent.json()).message).toContain("body.run.facets.parent.job.namespace: namespace meters is outside this token's namespaces");
    expect(await t.db.pipeline.count()).toBe(pipelines);
  });

  it("a role limited to a namespace holds only there: an operator of orders cannot open a repair of meters", async () => {
    await addUser(t.db, { id: "olga", role: "operator", namespaces: ["orders"] }, { actor: "ada", actorRole: "admin", reason: "orders on-call" });
    const { value } = await sealSession(t.db, { userId: "olga", via: "link" });
    const as = { cookie: `${SESSION_COOKIE}=${value}` };
    const meters = await call(postIncident, {
      method: "POST",
      path: "/api/v1/incidents",
      headers: as,
      body: { taskNodeId: "job:meters:land", units: ["2026-07"], reason: "meters broke" },
    });
    const why = await meters.clone().text();
    expect(meters.status, why).toBe(403);
    expect((await meters.json()).message).toBe("olga's operator role holds in orders only; this concerns meters");
    const orders = await call(postIncident, {
      method: "POST",
      path: "/api/v1/incidents",
      headers: as,
      body: { taskNodeId: "job:orders:stg_orders", units: ["2026-08-17"], reason: "stg broke" },
    });
    expect(orders.status).not.toBe(403);
    expect(await (await call(me, { headers: as })).json()).toMatchObject({ role: "operator", namespaces: ["orders"] });
  });

  it("a role limited to a namespace cannot reach another through its own incident: every taskNodeId of a body counts", async () => {
    await addUser(t.db, { id: "oona", role: "commander", namespaces: ["orders"] }, { actor: "ada", actorRole: "admin", reason: "orders commander" });
    const { value } = await sealSession(t.db, { userId: "oona", via: "link" });
    const as = { cookie: `${SESSION_COOKIE}=${value}` };
    const incident = await inTransaction(t.db, (tx) =>
      createIncident(tx, {
        title: "orders load 2026-08-18 failed",
        pipelineId: null,
        originRunId: null,
        failedPairs: [{ nodeId: "job:orders:load", units: ["2026-08-18"] }],
        openedBy: "oona",
        detectedAt: new Date(),
        openedAt: new Date(),
      }),
    );
    const meters = "job:meters:land";
    const attempts: [Handler, string, unknown][] = [
      [declareReplaceRoute, "declare-replace", { taskNodeId: meters, reason: "set meters to replace" }],
      [declareCleanedRoute, "declare-cleaned", { taskNodeId: meters, units: ["2026-07"], reason: "cleaned meters" }],
      [cleanUnitRoute, "clean-unit", { taskNodeId: meters, unitKey: "2026-07", reason: "delete meters rows" }],
      [scopeRoute, "scope", { reason: "add meters", addPairs: [{ taskNodeId: meters, units: ["2026-07"] }] }],
      [marksRoute, "marks", { kind: "known_bad", taskNodeId: meters, units: ["2026-07"], reason: "meters bad" }],
      [confirmPlanRoute, "plan", { strategy: "targeted", reason: "replay meters", replay: [{ taskNodeId: meters, idempotencyKey: "k1" }] }],
    ];
    const auditBefore = await t.db.auditEntry.count();
    for (const [handler, sub, body] of attempts) {
      const res = await call(handler, { method: "POST", path: `/api/v1/incidents/${incident.id}/${sub}`, headers: as, body, params: { id: incident.id } });
      expect(res.status, `${sub}: ${await res.clone().text()}`).toBe(403);
      expect((await res.json()).message).toBe("oona's commander role holds in orders only; this concerns meters");
    }
    expect(await t.db.auditEntry.count()).toBe(auditBefore);
    const own = await call(declareReplaceRoute, {
      method: "POST",
      path: `/api/v1/incidents/${incident.id}/declare-replace`,
      headers: as,
      body: { taskNodeId: "job:orders:load", reason: "orders load replaces" },
      params: { id: incident.id },
    });
    expect(own.status).not.toBe(403);
  });

  it("who has access (user.*, token.* entries) is in the audit log for admins only", async () => {
    const kinds = async (headers: Record<string, string>) =>
      ((await (await call(auditRoute, { path: "/api/v1/audit?limit=500", headers })).json()) as { entries: { kind: string }[] }).entries.map((e) => e.kind);
    const anonymous = await kinds({});
    expect(anonymous.length).toBeGreaterThan(0);
    expect(anonymous.filter((k) => k.startsWith("user.") || k.startsWith("token."))).toEqual([]);
    const { value } = await sealSession(t.db, { userId: "ada", via: "link" });
    const admin = await kinds({ cookie: `${SESSION_COOKIE}=${value}` });
    expect(admin).toContain("user.added");
    expect(admin).toContain("token.created");
  });

  it("sessions: an expired or forged cookie is anonymous; a removed user loses access at once", async () => {
    const past = await sealSession(t.db, { userId: "ada", via: "link" }, new Date(Date.now() - 13 * 3_600_000));
    expect((await (await call(me, { headers: { cookie: `${SESSION_COOKIE}=${past.value}` } })).json()).source).toBe("anonymous");
    const good = await sealSession(t.db, { userId: "ada", via: "link" });
    const forged = good.value.slice(0, -4) + (good.value.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect((await (await call(me, { headers: { cookie: `${SESSION_COOKIE}=${forged}` } })).json()).source).toBe("anonymous");
    const ghost = await sealSession(t.db, { userId: "nobody", via: "link" });
    expect((await (await call(me, { headers: { cookie: `${SESSION_COOKIE}=${ghost.value}` } })).json()).source).toBe("anonymous");
  });

  it("a one-time sign-in link signs in once; the second use is refused", async () => {
    const url = new URL(await signInLink(t.db, "ada", 15));
    const first = await call(link, { path: `${url.pathname}${url.search}` });
    expect(first.status).toBe(303);
    expect(first.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+; Path=/; HttpOnly; SameSite=Lax`));
    const second = await call(link, { path: `${url.pathname}${url.search}` });
    expect(second.status).toBe(303);
    expect(second.headers.get("location")).toContain("/sign-in?error=");
    expect(second.headers.get("set-cookie")).toBeNull();
  });

  it("cross-site: a DNS-rebinding request (Host and Origin evil.example) and a forged X-Forwarded-Host are refused; REPARO_PUBLIC_URL is the one origin", async () => {
    const { value } = await sealSession(t.db, { userId: "ada", via: "link" });
    const as = (headers: Record<string, string>) =>
      call(postToken, {
        method: "POST",
        body: { name: `t${Math.random().toString(36).slice(2, 8)}`, scope: "ingest", reason: "cross-site test" },
        headers: { cookie: `${SESSION_COOKIE}=${value}`, ...headers },
      });
    const rebind = await as({ host: "evil.example:3200", origin: "http://evil.example:3200" });
    expect(rebind.status).toBe(403);
    expect((await as({ host: "127.0.0.1:3000", origin: "http://evil.example", "x-forwarded-host": "evil.example" })).status).toBe(403);
    expect((await as({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" })).status).toBe(201);
    process.env.REPARO_PUBLIC_URL = "https://reparo.example.com";
    expect((await as({ host: "reparo.example.com", origin: "http://reparo.example.com" })).status).toBe(403);
    expect((await as({ host: "internal:3000", origin: "https://reparo.example.com" })).status).toBe(201);
  });
});
