import { getDb } from "../lib/server/db/client";
import { getOverview } from "../lib/server/overview/get-overview";
import { receivePublishesRequest } from "../lib/server/http/ingestion-requests";
import { whenUnitStatesReady } from "../lib/server/units/state-service";
const LAST_DAY_MS = Date.UTC(2026, 10, 28);
(async () => {
  const db = getDb();
  await whenUnitStatesReady(db, new Date());
  const { Session } = await import("node:inspector/promises");
  const s = new Session();
  s.connect();
  await s.post("Profiler.enable");
  await s.post("Profiler.start");
  const until = performance.now() + 20_000;
  const reads: number[] = [];
  let writes = 0;
  const wt: number[] = [];
  const writer = async (w: number) => {
    let n = 0;
    while (performance.now() < until) {
      const body = Array.from({ length: 50 }, (_, i) => ({
        dataset: { nodeId: `dataset:bench0${w % 10}:step_${String(2 + (n % 20)).padStart(2, "0")}` },
        unitKey: new Date(LAST_DAY_MS - 86_400_000 * ((n * 50 + i) % 3000)).toISOString().slice(0, 10),
        run: { externalId: `load-${w}-${n}-${i}-${Date.now()}`, job: { nodeId: `job:bench0${w % 10}:step_${String(2 + (n % 20)).padStart(2, "0")}` } },
        publishedAt: new Date(Date.now() - 1000).toISOString(),
        rowCount: 990,
      }));
      const t = performance.now();
      const r = await receivePublishesRequest(
        new Request("http://x/api/v1/publishes", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
        db,
      );
      wt.push(performance.now() - t);
      if (r.status >= 300) console.log(r.status, await r.text());
      writes++;
      n++;
    }
  };
  const reader = async () => {
    while (performance.now() < until) {
      const t = performance.now();
      await getOverview(new Date(), db);
      reads.push(performance.now() - t);
    }
  };
  await Promise.all([...Array.from({ length: 8 }, (_, w) => writer(w)), reader()]);
  const { profile } = await s.post("Profiler.stop");
  reads.sort((a, b) => a - b);
  wt.sort((a, b) => a - b);
  console.log("overview p50", Math.round(reads[reads.length >> 1]!), "n", reads.length, "writes", writes, "write p50", Math.round(wt[wt.length >> 1]!));
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const counts = new Map<number, number>();
  for (const id of profile.samples!) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, c] of counts) {
    const x = byId.get(id)!;
    const k = `${x.callFrame.functionName || "(anon)"} ${x.callFrame.url.split("/").slice(-2).join("/")}:${x.callFrame.lineNumber}`;
    self.set(k, (self.get(k) ?? 0) + c);
  }
  console.log(
    profile.samples!.length,
    [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([k, v]) => `${v}\t${k}`)
      .join("\n"),
  );
  // inclusive by top-level-ish function names of interest
  const parent = new Map<number, number>();
  for (const x of profile.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const incl = new Map<string, number>();
  for (const [id, c] of counts) {
    const seen = new Set<string>();
    let cur: number | undefined = id;
    while (cur !== undefined) {
      const x = byId.get(cur)!;
      const k = x.callFrame.functionName;
      if (k && !seen.has(k)) {
        seen.add(k);
        incl.set(k, (incl.get(k) ?? 0) + c);
      }
      cur = parent.get(cur);
    }
  }
  console.log(
    [...incl]
      .filter(([k]) =>
        /^(getOverview|getUnitStateSnapshot|applyChanges|recomputeUnits|receivePublishesRequest|applyPublishes|unitStateFingerprint|lineageFingerprint|lastUnitChange|persist|readIngestionBatch|recordUnitChanges|describeOpenFailures|loadLineageGraph|statesOf|upstreamLatest|findingsOf|listInvalidKeys|authenticate.*|resolvePartitions)$/.test(
          k,
        ),
      )
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${v}\t${k}`)
      .join("\n"),
  );
  process.exit(0);
})();
