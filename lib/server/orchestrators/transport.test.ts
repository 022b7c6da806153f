import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrchestratorError } from "./port";
import { peerTransport, type PeerAuth } from "./transport";

/** A peer that accepts only `Bearer fresh` and answers 409 on /conflict. */
let server: http.Server;
let base = "";
const seen: { path: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", authorization: req.headers.authorization });
    const ok = req.headers.authorization === "Bearer fresh";
    res.writeHead(!ok ? 401 : req.url === "/conflict" ? 409 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify(!ok ? { detail: "token expired" } : req.url === "/conflict" ? { detail: "already cleared" } : { id: 7 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Hands out a stale token first and a fresh one when asked to renew. */
const renewing = (renews: boolean): PeerAuth & { asked: boolean[] } => {
  const asked: boolean[] = [];
  return { asked, renewsOn401: renews, headers: async (_x, _r, renew) => (asked.push(renew), { authorization: `Bearer ${renew ? "fresh" : "stale"}` }) };
};

describe("the transport", () => {
  it("renews the credentials once on a 401 and keeps both calls, in order, without a header", async () => {
    const auth = renewing(true);
    const exchange = peerTransport("airflow", base, auth).exchange();
    const answer = await exchange.send<{ id: number }>({
      method: "POST",
      path: "/api/v2/thing",
      body: { a: 1 },
      ids: (a) => ({ id: a.body.id }),
      expect: [200],
    });
    expect(answer.body).toEqual({ id: 7 });
    expect(auth.asked).toEqual([false, true]);
    expect(exchange.calls).toEqual([
      { orchestrator: "airflow", method: "POST", url: `${base}/api/v2/thing`, status: 401, error: "token expired" },
      { orchestrator: "airflow", method: "POST", url: `${base}/api/v2/thing`, status: 200, ids: { id: 7 } },
    ]);
  });

  it("does not retry a 401 when the auth cannot renew: the status is the answer", async () => {
    const exchange = peerTransport("databricks", base, renewing(false)).exchange();
    const error = await exchange.send({ method: "GET", path: "/x", expect: [200], what: "reading x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrchestratorError);
    expect((error as OrchestratorError).message).toBe(`Databricks at ${base} refused Reparo's token (401) while reading x: "token expired"`);
    expect(exchange.calls.map((c) => c.status)).toEqual([401]);
  });

  it("a failure carries the calls made before it in the same operation", async () => {
    const exchange = peerTransport("airflow", base, renewing(true)).exchange();
    await exchange.send({ method: "GET", path: "/first", expect: [200] });
    const refused = (await exchange.send({ method: "POST", path: "/conflict", expect: [200], what: "clearing" }).catch((e: unknown) => e)) as OrchestratorError;
    expect(refused.message).toBe(`Airflow at ${base} refused clearing (409): "already cleared"`);
    expect(refused.call).toMatchObject({ url: `${base}/conflict`, status: 409 });
    expect(refused.earlier.map((c) => [c.url.replace(base, ""), c.status])).toEqual([
      ["/first", 401],
      ["/first", 200],
      ["/conflict", 401],
    ]);
    const unreachable = (await peerTransport("airflow", "http://127.0.0.1:1", null)
      .exchange()
      .send({ method: "GET", path: "/y" })
      .catch((e: unknown) => e)) as OrchestratorError;
    expect(unreachable.call).toMatchObject({ url: "http://127.0.0.1:1/y", status: null });
    // A port nothing listens on (fetch refuses port 1 itself, as a "bad port").
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refusedConnection = (await peerTransport("airflow", `http://127.0.0.1:${port}`, null)
      .exchange()
      .send({ method: "GET", path: "/y" })
      .catch((e: unknown) => e)) as OrchestratorError;
    expect(refusedConnection.message).toBe(`Airflow at http://127.0.0.1:${port} is not reachable: connection refused`);
  });

  it("names the user whose password or permission was refused", async () => {
    const asUser = { ...renewing(true), user: "reparo" };
    const signIn = (await peerTransport("airflow", base, asUser)
      .exchange()
      .send({ method: "POST", path: "/auth/token", anonymous: true, signInAs: "reparo", expect: [201], what: "signing in to Airflow as reparo" })
      .catch((e: unknown) => e)) as OrchestratorError;
    expect(signIn.message).toBe(`Airflow at ${base} refused the password of user reparo (401) while signing in to Airflow as reparo`);
  });
});
