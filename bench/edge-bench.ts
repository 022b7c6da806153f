// npm run bench:edge — what hostile or broken bodies cost the served console (issue 13's fuzz
// corpus), beside the baseline of a well-formed body of the same size: each body's answer time
// (median of 5), and /api/health's slowest answer while that body is processed (polled every
// 10 ms). Needs `npx next build` first. Prints a table, then one JSON line.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const PORT = Number(process.env.BENCH_PORT ?? 3410);
const BASE = `http://127.0.0.1:${PORT}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reparo-edge-"));
const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, "edge.db")}`, NEXT_TELEMETRY_DISABLED: "1" };

const event = (i: number) =>
  JSON.stringify({
    eventType: "COMPLETE",
    eventTime: "2026-11-30T02:10:00Z",
    producer: "https://example.com/bench",
    schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
    run: { runId: `0190a8f3-1c2d-7e4f-8a9b-${String(i).padStart(12, "0")}` },
    job: { namespace: "bench", name: `job_${i % 50}` },
    inputs: [],
    outputs: [{ namespace: "warehouse", name: `table_${i % 50}` }],
  });
function sized(make: (i: number) => string, bytes: number, sep: string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const p = make(i);
    parts.push(p);
    size += p.length + sep.length;
  }
  return parts.join(sep);
}
const BODIES: [string, string, string][] = [
  ["baseline: 100 KB of valid NDJSON events", "lineage", sized(event, 100_000, "\n")],
  ["100 KB NDJSON junk (50,000 lines of x)", "lineage", "x\n".repeat(50_000)],
  [
    "100 KB NDJSON junk (9,000 malformed lines)",
    "lineage",
    sized(() => "{nope:1", 100_000, "\n")
      .split("\n")
      .slice(0, 9_000)
      .join("\n"),
  ],
  ["200 KB: 100,000 integers", "lineage/batch", `[${Array(100_000).fill("1").join(",")}]`],
  ["20 KB: 10,000 levels of nesting", "lineage", "[".repeat(10_000) + "]".repeat(10_000)],
  ["200 KB: 100,000 integers as publishes", "publishes", `[${Array(100_000).fill("1").join(",")}]`],
];

async function main(): Promise<void> {
  execFileSync("npx", ["tsx", "scripts/db-migrate.ts"], { env, stdio: "ignore" });
  const token = execFileSync("npx", ["tsx", "scripts/tokens.ts", "create", "bench", "--scope", "ingest", "--reason", "edge bench"], {
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  })
    .trim()
    .split("\n")
    .pop()!;
  process.env.REPARO_TOKEN_RATE = "1000000";
  const server = spawn("npx", ["next", "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    env: { ...env, REPARO_TOKEN_RATE: "1000000" },
    stdio: "ignore",
    detached: true,
  });
  try {
    for (let i = 0; i < 200; i++) {
      if (
        await fetch(`${BASE}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const rows: { body: string; status: number; medianMs: number; healthMaxMs: number; bytes: number }[] = [];
    for (const [name, route, body] of BODIES) {
      const times: number[] = [];
      let healthMax = 0;
      let status = 0;
      for (let k = 0; k < 5; k++) {
        let done = false;
        const poll = (async () => {
          while (!done) {
            const t0 = performance.now();
            await fetch(`${BASE}/api/health`);
            healthMax = Math.max(healthMax, performance.now() - t0);
            await new Promise((r) => setTimeout(r, 10));
          }
        })();
        const t0 = performance.now();
        const res = await fetch(`${BASE}/api/v1/${route}`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        });
        await res.text();
        times.push(performance.now() - t0);
        status = res.status;
        done = true;
        await poll;
      }
      times.sort((a, b) => a - b);
      rows.push({ body: name, status, medianMs: Math.round(times[2]!), healthMaxMs: Math.round(healthMax), bytes: body.length });
    }
    for (const r of rows)
      console.log(
        `${r.body.padEnd(46)} ${String(r.status).padStart(3)}  ${String(r.medianMs).padStart(6)} ms   health max ${String(r.healthMaxMs).padStart(5)} ms`,
      );
    console.log(JSON.stringify({ bench: "edge", rows }));
  } finally {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      /* gone */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
