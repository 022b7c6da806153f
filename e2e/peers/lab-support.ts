import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PEERS_DATABASE_URL, PEERS_URL } from "../../playwright.peers.config";

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
