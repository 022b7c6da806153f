/**
 * The baseline the closure must beat: expand every (node, unit) pair and walk the pairs one
 * by one with a queue, applying each mapping to a single unit with plain date arithmetic.
 * This is how a closure is computed when sets are arrays of keys. Visited pairs are kept in
 * one bitmap per node (a fair baseline: no string keys, no Set of 18 million entries).
 */
import type { BenchGraph, SpaceKind } from "./bench-graph";
import { DAYS, MONTHS } from "./bench-graph";

const sizeOf = (k: SpaceKind) => (k === "day" ? DAYS : k === "month" ? MONTHS : 1);

/** Day ordinal (from 2016-01-01) → month ordinal (from 2016-01), and each month's first day. */
function calendar() {
  const dayToMonth = new Int32Array(DAYS);
  const monthStart = new Int32Array(MONTHS + 1);
  const t0 = Date.UTC(2016, 0, 1);
  for (let d = 0; d < DAYS; d++) {
    const date = new Date(t0 + d * 86_400_000);
    dayToMonth[d] = (date.getUTCFullYear() - 2016) * 12 + date.getUTCMonth();
  }
  for (let m = 0; m <= MONTHS; m++) monthStart[m] = (Date.UTC(2016, m, 1) - t0) / 86_400_000;
  return { dayToMonth, monthStart };
}

interface Edge {
  to: number;
  fn: (u: number, emit: (v: number) => void) => void;
}

export function naiveClosure(g: BenchGraph, seeds: { node: string; unit: number }[]): { nodes: string[]; visited: Uint8Array[] } {
  const { dayToMonth, monthStart } = calendar();
  const nodes = [...g.spaceOf.keys()];
  const index = new Map(nodes.map((n, i) => [n, i]));
  const kinds = nodes.map((n) => g.spaceOf.get(n)!);
  const out: Edge[][] = nodes.map(() => []);
  for (const w of g.spec.writes) out[index.get(w.task)!]!.push({ to: index.get(w.dataset)!, fn: (u, emit) => emit(u) });
  for (const r of g.reads) {
    const [from, to] = [index.get(r.dataset)!, index.get(r.task)!];
    const [up, down] = [kinds[from]!, kinds[to]!];
    const size = sizeOf(down);
    const m = r.mapping;
    let fn: Edge["fn"];
    if (r.self || m.type === "previous") fn = (u, emit) => u + 1 < size && emit(u + 1);
    else if (m.type === "identity") fn = (u, emit) => emit(u);
    else if (m.type === "window")
      fn = (u, emit) => {
        for (let v = u; v < Math.min(size, u + m.k); v++) emit(v);
      };
    else if (m.type === "all")
      fn = (_u, emit) => {
        for (let v = 0; v < size; v++) emit(v);
      };
    else if (up === "day") fn = (u, emit) => emit(dayToMonth[u]!);
    else
      fn = (u, emit) => {
        for (let v = monthStart[u]!; v < Math.min(DAYS, monthStart[u + 1]!); v++) emit(v);
      };
    if (r.self) out[to]!.push({ to, fn });
    else out[from]!.push({ to, fn });
  }
  const visited = kinds.map((k) => new Uint8Array(sizeOf(k)));
  let queue = new Int32Array(1 << 20);
  let tail = 0;
  const push = (n: number, u: number) => {
    if (visited[n]![u]) return;
    visited[n]![u] = 1;
    if (tail + 2 > queue.length) {
      const bigger = new Int32Array(queue.length * 2);
      bigger.set(queue);
      queue = bigger;
    }
    queue[tail++] = n;
    queue[tail++] = u;
  };
  for (const s of seeds) push(index.get(s.node)!, s.unit);
  for (let head = 0; head < tail; head += 2) {
    const n = queue[head]!;
    const u = queue[head + 1]!;
    for (const e of out[n]!) e.fn(u, (v) => push(e.to, v));
  }
  return { nodes, visited };
}
