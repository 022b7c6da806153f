/**
 * Random producers for the property test: each sequence is a small catalog in namespaces of its
 * own — jobs, datasets, partition definitions declared before or after the events — and the
 * events, publishes, source counts and task properties real producers send, including what
 * breaks naive consoles: self-reads, cycles across jobs, mismatched partitioning, unknown and
 * malformed keys, huge and tiny times, retries, runs shared across events, static events.
 */
import fc from "fast-check";

const DEFS = [
  { kind: "none" },
  { kind: "time", grain: "day", start: "2026-08-01", timezone: "UTC" },
  { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" },
  { kind: "time", grain: "hour", start: "2026-08-17T00", timezone: "Europe/Berlin", lateness: "PT2H" },
  { kind: "time", grain: "week", start: "2026-W30", timezone: "UTC" },
  { kind: "time", grain: "month", start: "2026-01", end: "2026-12", timezone: "UTC", lateness: "P0D" },
  { kind: "static", keys: ["eu", "us", "apac"] },
  { kind: "dynamic", registered: ["t1", "t2"], deleted: ["t2"] },
  {
    kind: "multi",
    dimensions: [
      { name: "region", def: { kind: "static", keys: ["eu", "us"] } },
      { name: "day", def: { kind: "time", grain: "day", start: "2026-08-10", end: "2026-08-20", timezone: "UTC" } },
    ],
  },
] as const;

const TIMES = [
  "2026-08-17T02:00:00Z",
  "2026-08-18T02:10:00.123Z",
  "2026-08-18T02:10:00.124Z",
  "2026-08-19T00:00:00+02:00",
  "2026-11-30T23:59:59Z",
  "1970-01-01T00:00:00Z",
  "1969-12-31T23:59:59Z",
  "0001-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "2100-01-01T00:00:00Z",
  "2026-08-18T02:10:00",
];
const KEYS = [
  "2026-08-17",
  "2026-08-18",
  "2026-08-31",
  "2026-13-45",
  "2026-08-17T05",
  "2026-W34",
  "2026-08",
  "eu",
  "us",
  "t2",
  "region=eu/2026-08-15",
  "*",
  "",
  "x".repeat(300),
  "\u0000\u001f",
  "\ud800",
];

export interface ProducerSequence {
  /** Namespaces of this sequence: jobs in `${ns}`, datasets in `${ns}-data`. */
  ns: string;
  declareBefore: { dataset: number; def: number }[];
  declareAfter: { dataset: number; def: number }[];
  events: unknown[];
  publishes: unknown[];
  sourceCounts: unknown[];
  taskProps: { job: number; body: Record<string, unknown> }[];
}

const datasetRef = (ns: string, i: number) => ({ namespace: `${ns}-data`, name: `d${i}` });

const arbDataset = (ns: string, n: number) =>
  fc
    .record({
      i: fc.nat(n - 1),
      keys: fc.option(fc.array(fc.constantFrom(...KEYS), { maxLength: 2 }), { freq: 2 }),
      rows: fc.option(fc.constantFrom(0, 1, 120, 2_147_483_647), { freq: 2 }),
      version: fc.option(fc.constantFrom("v1", "v2", "snap-0817", "a,b@c"), { freq: 3 }),
    })
    .map(({ i, keys, rows, version }) => ({
      ...datasetRef(ns, i),
      ...(version ? { facets: { version: { datasetVersion: version } } } : {}),
      ...(keys || rows !== null
        ? {
            outputFacets: {
              ...(rows !== null ? { outputStatistics: { rowCount: rows } } : {}),
              ...(keys
                ? { subset: { outputCondition: { type: "partition", partitions: keys.map((k) => (k === "" ? { dimensions: {} } : { identifier: k })) } } }
                : {}),
            },
            inputFacets: keys
              ? { subset: { inputCondition: { type: "partition", partitions: keys.filter(Boolean).map((k) => ({ identifier: k })) } } }
              : undefined,
          }
        : {}),
    }));

const arbEvent = (ns: string, jobs: number, datasets: number) =>
  fc
    .record({
      kind: fc.constantFrom("run", "run", "run", "run", "job", "dataset"),
      job: fc.nat(jobs - 1),
      run: fc.nat(2),
      type: fc.constantFrom("START", "RUNNING", "COMPLETE", "COMPLETE", "FAIL", "ABORT", "OTHER", undefined),
      time: fc.constantFrom(...TIMES),
      nominal: fc.option(fc.constantFrom(...TIMES), { freq: 2 }),
      inputs: fc.array(arbDataset(ns, datasets), { maxLength: 3 }),
      outputs: fc.array(arbDataset(ns, datasets), { maxLength: 2 }),
      airflow: fc.option(
        fc.record({ key: fc.constantFrom(...KEYS), date: fc.constantFrom(...TIMES, "not a date"), tryNumber: fc.integer({ min: -1, max: 3 }) }),
        { freq: 4 },
      ),
      parent: fc.option(fc.nat(jobs - 1), { freq: 3 }),
      error: fc.option(fc.constantFrom("boom", "\ud800 lone surrogate", "x".repeat(1_200)), { freq: 4 }),
    })
    .map((e) => {
      const job = { namespace: ns, name: `j${e.job}` };
      const strip = (d: Record<string, unknown>, keep: "inputFacets" | "outputFacets") => {
        const { inputFacets, outputFacets, ...rest } = d;
        const facets = keep === "inputFacets" ? inputFacets : outputFacets;
        return facets ? { ...rest, [keep]: facets } : rest;
      };
      const inputs = e.inputs.map((d) => strip(d, "inputFacets"));
      const outputs = e.outputs.map((d) => strip(d, "outputFacets"));
      if (e.kind === "dataset") return { eventTime: e.time, dataset: datasetRef(ns, e.job % datasets) };
      if (e.kind === "job") return { eventTime: e.time, job, inputs, outputs };
      const facets: Record<string, unknown> = {};
      if (e.nominal) facets.nominalTime = { nominalStartTime: e.nominal };
      if (e.parent !== null) facets.parent = { run: { runId: `${ns}-root` }, job: { namespace: ns, name: `j${e.parent}` } };
      if (e.airflow)
        facets.airflow = { dagRun: { partition_key: e.airflow.key, partition_date: e.airflow.date }, taskInstance: { try_number: e.airflow.tryNumber } };
      if (e.error) facets.errorMessage = { message: e.error, programmingLanguage: "python" };
      return { ...(e.type ? { eventType: e.type } : {}), eventTime: e.time, run: { runId: `${ns}-r${e.run}`, facets }, job, inputs, outputs };
    });

export function arbSequence(index: number): fc.Arbitrary<ProducerSequence> {
  const ns = `s${index}`;
  return fc.record({ jobs: fc.integer({ min: 1, max: 3 }), datasets: fc.integer({ min: 1, max: 4 }) }).chain(({ jobs, datasets }) =>
    fc.record({
      ns: fc.constant(ns),
      declareBefore: fc.array(fc.record({ dataset: fc.nat(datasets - 1), def: fc.nat(DEFS.length - 1) }), { maxLength: 2 }),
      declareAfter: fc.array(fc.record({ dataset: fc.nat(datasets - 1), def: fc.nat(DEFS.length - 1) }), { maxLength: 1 }),
      events: fc.array(arbEvent(ns, jobs, datasets), { minLength: 1, maxLength: 6 }),
      publishes: fc.array(
        fc
          .record({
            d: fc.nat(datasets - 1),
            j: fc.nat(jobs - 1),
            key: fc.constantFrom(...KEYS),
            at: fc.constantFrom(...TIMES),
            rows: fc.constantFrom(0, 5, -1, 1.5),
            version: fc.constantFrom("", "snap\u001f1", "v1"),
          })
          .map((p) => ({
            dataset: datasetRef(ns, p.d),
            unitKey: p.key,
            run: { externalId: `${ns}-p`, job: { namespace: ns, name: `j${p.j}` } },
            publishedAt: p.at,
            rowCount: p.rows,
            inputVersion: p.version,
          })),
        { maxLength: 2 },
      ),
      sourceCounts: fc.array(
        fc.record({ d: fc.nat(datasets - 1), key: fc.constantFrom(...KEYS), at: fc.constantFrom(...TIMES), rows: fc.constantFrom(0, 7, 40) }).map((c) => ({
          dataset: datasetRef(ns, c.d),
          unitKey: c.key,
          rowCount: c.rows,
          measuredAt: c.at,
        })),
        { maxLength: 1 },
      ),
      taskProps: fc.array(
        fc.record({
          job: fc.nat(jobs - 1),
          body: fc.constantFrom<Record<string, unknown>>(
            { writeMode: "append", reason: "inserts" },
            { dependsOnOwnPast: true, reason: "running total" },
            { publishMode: "atomic_set", sideEffect: "external", reason: "exports" },
          ),
        }),
        { maxLength: 1 },
      ),
    }),
  );
}

export const partitionDefAt = (i: number) => DEFS[i]!;
export const sequenceDataset = (ns: string, i: number) => `dataset:${ns}-data:d${i}`;
export const sequenceJob = (ns: string, i: number) => `job:${ns}:j${i}`;
