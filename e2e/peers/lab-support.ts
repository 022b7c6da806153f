import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import pg from "pg";
import { PEERS_ARTIFACTS, PEERS_DATABASE_URL, PEERS_RESULTS, PEERS_URL } from "../../playwright.peers.config";
import { expect, test } from "../fixtures";

/** What the closed loops (e2e/peers/*.spec.ts) share: the repository's CLIs, peers/lab.sh, stage times. */
export const ROOT = path.resolve(__dirname, "../..");
export const LAB_RUN = process.env.REPARO_PEERS_RUN ?? "/tmp/reparo-peers";
export const WAREHOUSE_URL = `postgresql://${process.env.REPARO_PG_USER ?? "postgres"}@${process.env.REPARO_PG_HOST ?? "127.0.0.1"}:${process.env.REPARO_PG_PORT ?? "5432"}/reparo_lab_warehouse`;

export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let d = Date.parse(`${first}T00:00:00Z`); d <= Date.parse(`${last}T00:00:00Z`); d += 86_400_000) out.push(new Date(d).toISOString().slice(0, 10));
  return out;
}

export const lastLine = (out: string) => out.trim().split("\n").at(-1)!.trim();

/** A spec's commands, their logs kept in its artifacts folder, and the seconds of its stages. */
export function labTools(artifacts: string) {
  const times: Record<string, number> = {};
  /**
   * Runs a command of the repository (a CLI, peers/lab.sh); its output is kept in the artifacts
   * folder (`label`.log) unless it prints a secret (a token, a sign-in link); throws with its tail on failure.
   */
  function sh(
    label: string,
    cmd: string,
    args: string[],
    env: Record<string, string> = {},
    prints: "output" | "secret" = "output",
    options: { cwd?: string; allowFailure?: boolean } = {},
  ): { stdout: string; status: number | null } {
    const t0 = Date.now();
    const r = spawnSync(cmd, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const seconds = (Date.now() - t0) / 1000;
    const output = prints === "secret" ? "(not kept: it prints a secret)" : `${r.stdout}\n${r.stderr}`;
    fs.mkdirSync(artifacts, { recursive: true });
    fs.writeFileSync(path.join(artifacts, `${label}.log`), `$ ${cmd} ${args.join(" ")}\n# ${seconds.toFixed(1)} s, exit ${r.status}\n${output}`);
    if (r.status !== 0 && !options.allowFailure)
      throw new Error(`${cmd} ${args.join(" ")} exited ${r.status} after ${seconds.toFixed(1)} s:\n${(prints === "secret" ? r.stderr : output).trim().slice(-3000)}`);
    return { stdout: r.stdout, status: r.status };
  }
  const cli = (label: string, script: string, args: string[], prints: "output" | "secret" = "output") =>
    sh(label, "npx", ["tsx", `scripts/${script}.ts`, ...args], { DATABASE_URL: PEERS_DATABASE_URL, REPARO_PUBLIC_URL: PEERS_URL }, prints).stdout;
  const lab = (label: string, ...args: string[]) => sh(label, "bash", ["peers/lab.sh", ...args]).stdout;
  function timed<T>(name: string, f: () => T): T {
    const t0 = Date.now();
    try {
      return f();
    } finally {
      times[name] = Math.round((Date.now() - t0) / 100) / 10;
    }
  }
  return { times, sh, cli, lab, timed };
}

/** What each closed loop reports (scripts/test-peers.sh merges them into its last line). */
export interface LoopResult {
  version: string | null;
  pairsPlanned: number | null;
  pairsRerun: number | null;
  extraRerun: number | null;
  validated: boolean;
}
export const emptyResult = (): LoopResult => ({ version: null, pairsPlanned: null, pairsRerun: null, extraRerun: null, validated: false });

/** Writes a spec's result (test-results/peers/<peer>.json) and stage times, and logs both. */
export function writeResult(peer: string, result: LoopResult, times: Record<string, number>): void {
  fs.mkdirSync(PEERS_RESULTS, { recursive: true });
  fs.mkdirSync(PEERS_ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(PEERS_RESULTS, `${peer}.json`), `${JSON.stringify({ [peer]: result })}\n`);
  fs.writeFileSync(path.join(PEERS_ARTIFACTS, `${peer}-seconds.json`), `${JSON.stringify(times)}\n`);
  console.log(`[peers] ${peer}: ${JSON.stringify({ seconds: times, ...result })}`);
}

/**
 * The tail every closed loop shares, on the incident's Execute step once the peer re-ran the plan:
 * 6. Validate — every unit of the plan passes (the ledger, and the row counts where the producer
 * gives them), the verdict says so in the page's words — then resolve with a reason, and the
 * audit chain still verifies. Returns the incident's audit entries for the spec's own checks.
 */
export async function validateAndResolve(
  page: Page,
  id: string,
  o: { verdict: string[]; reason: string; shot: (name: string) => Promise<unknown>; shots: [validate: string, close: string] },
): Promise<{ entries: { kind: string; after: unknown }[]; text: string }> {
  const api = page.request;
  await page.getByRole("button", { name: "Validate →" }).click();
  await expect(page).toHaveURL(new RegExp(`/incidents/${id}/validate$`));
  const verdict = page.getByTestId("validation-verdict");
  await expect(verdict).toBeVisible();
  await o.shot(o.shots[0]);
  const validation = await (await api.get(`/api/v1/incidents/${id}/validation`)).json();
  const failing = validation.units
    .filter((u: { passed: boolean }) => !u.passed)
    .map((u: { name: string; unitKey: string; failures: string[] }) => `${u.name} ${u.unitKey}: ${u.failures.join("; ")}`);
  expect(failing, "units failing validation").toEqual([]);
  expect(validation.passed).toBe(true);
  for (const text of o.verdict) await expect(verdict).toContainText(text);
  await page.getByTestId("resolve-open").click();
  await page.getByTestId("resolve").getByLabel(/Why/).fill(o.reason);
  await page.getByTestId("resolve").getByRole("button", { name: /^Confirm:/ }).click();
  // Resolved, the wizard goes on to who is told of it (Communicate), then Close.
  await expect(page).toHaveURL(/\/incidents\/[^/]+\/communicate$/);
  await page.getByRole("button", { name: "Close →" }).click();
  await expect(page.getByTestId("close-status")).toContainText("resolved");
  await o.shot(o.shots[1]);
  const audit = await (await api.get(`/api/v1/audit?incidentId=${id}&limit=500`)).json();
  const kinds: string[] = audit.entries.map((e: { kind: string }) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(["repair.previewed", "repair.launched", "repair.dispatched", "repair.progress", "repair.finished"]));
  expect(await (await api.get("/api/v1/audit/verify")).json()).toMatchObject({ ok: true, brokenAt: null });
  return { entries: audit.entries, text: JSON.stringify(audit) };
}

// ---------------------------------------------------------------- what every closed loop does the same way
/** The console's people of the lab, shared by every spec of a run. */
export const ADMIN = "lab-admin";
export const COMMANDER = "lab-commander";

/**
 * A spec's artifacts (screenshots and command logs in test-results/peers/<peer>) and its tools;
 * `begin` starts its beforeAll: it skips unless run with playwright.peers.config.ts (the main
 * e2e run lists these files too), empties the artifacts and adds the lab's people once.
 */
export function labSpec(peer: string) {
  const shots = path.join(PEERS_ARTIFACTS, peer);
  const tools = labTools(shots);
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  let underPeersConfig = false;

  function begin(testInfo: TestInfo, timeout: number): void {
    underPeersConfig = path.basename(testInfo.config.configFile ?? "") === "playwright.peers.config.ts";
    test.skip(!underPeersConfig, "runs against the real peers: npx playwright test -c playwright.peers.config.ts (scripts/test-peers.sh)");
    test.setTimeout(timeout);
    fs.rmSync(shots, { recursive: true, force: true });
    fs.mkdirSync(shots, { recursive: true });
    const users = tools.cli("users-list", "users", ["list"]);
    if (!users.includes(ADMIN)) tools.cli("users-admin", "users", ["add", ADMIN, "--role", "admin", "--name", "Ada Admin", "--reason", "the peers lab's first admin"]);
    if (!users.includes(COMMANDER))
      tools.cli("users-commander", "users", ["add", COMMANDER, "--role", "commander", "--name", "Cora Commander", "--reason", "repairs the lab's incidents"]);
  }

  /** A producer token of the console (`rpt_…`), created with the tokens CLI. */
  function token(scope: "ingest" | "declare", name: string, reason: string): string {
    const created = lastLine(tools.cli(`token-${scope}`, "tokens", ["create", name, "--scope", scope, "--reason", reason], "secret"));
    expect(created).toMatch(/^rpt_/);
    return created;
  }

  /** The commander signed in in the page with a one-time link from the console's machine. */
  async function signInCommander(page: Page): Promise<void> {
    await page.goto(lastLine(tools.cli("sign-in-commander", "users", ["sign-in-link", COMMANDER], "secret")));
    await expect(page.getByTestId("whoami-role")).toHaveText("commander");
  }

  /** The admin's session in `request`, from a one-time link; returns the link. */
  async function signInAdmin(request: APIRequestContext): Promise<string> {
    const link = lastLine(tools.cli("sign-in-admin", "users", ["sign-in-link", ADMIN], "secret"));
    expect((await request.get(link)).ok()).toBe(true);
    return link;
  }

  return { ...tools, shots, shot, begin, token, signInCommander, signInAdmin, underPeersConfig: () => underPeersConfig };
}

/** A POST of the console's API as the signed-in user (same-origin), which must succeed; its JSON. */
export function poster(api: APIRequestContext) {
  return async (p: string, data: unknown) => {
    const res = await api.post(p, { data, headers: { origin: PEERS_URL } });
    expect(res.ok(), `${p}: ${await res.text()}`).toBe(true);
    return res.json();
  };
}

export async function ingestedEvents(request: APIRequestContext): Promise<number> {
  return ((await (await request.get("/api/v1/ingestion")).json()) as { totals: { events: number } }).totals.events;
}

/** Rows of one day in a table of the lab warehouse, and how many distinct orders. */
export async function rowsOfDay(table: string, day: string): Promise<{ rows: number; distinct: number }> {
  const client = new pg.Client({ connectionString: WAREHOUSE_URL });
  await client.connect();
  try {
    const r = await client.query<{ rows: number; distinct: number }>(
      `SELECT count(*)::int AS rows, count(DISTINCT order_id)::int AS distinct FROM ${table} WHERE order_day = $1::date`,
      [day],
    );
    return r.rows[0]!;
  } finally {
    await client.end();
  }
}
