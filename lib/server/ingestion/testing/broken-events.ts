/** A valid event the faults below are carved from (shape of a real Airflow task COMPLETE). */
export function validEvent(runId = "01936893-9751-7150-bbde-000000000001"): Record<string, unknown> {
  return {
    eventType: "COMPLETE",
    eventTime: "2026-08-18T02:10:00.000Z",
    producer: "https://github.com/apache/airflow/tree/providers-openlineage/1.14.0",
    schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
    run: {
      runId,
      facets: {
        nominalTime: { nominalStartTime: "2026-08-17T00:00:00Z" },
        parent: { run: { runId: "dag-run-1" }, job: { namespace: "airflow", name: "orders" } },
      },
    },
    job: { namespace: "airflow", name: "orders.stg_orders" },
    inputs: [{ namespace: "postgres://db:5432", name: "raw.orders", facets: { version: { datasetVersion: "v7" } } }],
    outputs: [{ namespace: "postgres://db:5432", name: "public.stg_orders", outputFacets: { outputStatistics: { rowCount: 120 } } }],
  };
}

type Mutator = (e: Record<string, any>) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `refused`: rows the rejection log gains (one per refused event; 1 for a refused request). */
export interface Fault {
  name: string;
  body: string;
  status: number;
  path: string;
  refused?: number;
}

const event = (name: string, path: string, mutate: Mutator): Fault => {
  const e = validEvent();
  const result = mutate(e);
  return { name, body: JSON.stringify(result === undefined ? e : result), status: 400, path };
};
const raw = (name: string, body: string, path = "body"): Fault => ({ name, body, status: 400, path });
const stats = "body.outputs.0.outputFacets.outputStatistics.rowCount";

/** Distinct faults, each with the field path the 400 must name. */
export const BROKEN_EVENTS: Fault[] = [
  raw("empty body", ""),
  raw("whitespace body", "   \n "),
  raw("malformed JSON", "{nope"),
  raw("truncated JSON", JSON.stringify(validEvent()).slice(0, 80)),
  raw("a JSON string", '"hello"'),
  raw("a JSON number", "42"),
  raw("JSON null", "null"),
  raw("an empty batch", "[]"),
  raw("a batch of one non-object", "[1]", "body[0]"),
  { ...raw("NDJSON whose lines are all malformed", "{a\n{b", "body[0]"), refused: 2 },
  event("missing eventTime", "body.eventTime", (e) => void delete e.eventTime),
  event("eventTime in words", "body.eventTime", (e) => void (e.eventTime = "yesterday")),
  event("eventTime without a zone", "body.eventTime", (e) => void (e.eventTime = "2026-08-18T02:10:00")),
  event("eventTime as epoch number", "body.eventTime", (e) => void (e.eventTime = 1787011800000)),
  event("unknown eventType", "body.eventType", (e) => void (e.eventType = "FINISHED")),
  event("lower-case eventType", "body.eventType", (e) => void (e.eventType = "complete")),
  event("eventType as a number", "body.eventType", (e) => void (e.eventType = 3)),
  event("neither a run, a job nor a dataset", "body", (e) => void (delete e.run, delete e.job)),
  event("run as a string", "body.run", (e) => void (e.run = "run-1")),
  event("missing runId", "body.run.runId", (e) => void delete e.run.runId),
  event("empty runId", "body.run.runId", (e) => void (e.run.runId = "")),
  event("runId as a number", "body.run.runId", (e) => void (e.run.runId = 7)),
  event("missing job", "body.job", (e) => void delete e.job),
  event("missing job namespace", "body.job.namespace", (e) => void delete e.job.namespace),
  event("blank job name", "body.job.name", (e) => void (e.job.name = "   ")),
  event("inputs not a list", "body.inputs", (e) => void (e.inputs = { name: "x" })),
  event("input without a name", "body.inputs.0.name", (e) => void delete e.inputs[0].name),
  event("output namespace as a number", "body.outputs.0.namespace", (e) => void (e.outputs[0].namespace = 5)),
  event("negative row count", stats, (e) => void (e.outputs[0].outputFacets.outputStatistics.rowCount = -1)),
  event("row count as a string", stats, (e) => void (e.outputs[0].outputFacets.outputStatistics.rowCount = "120")),
  event("fractional row count", stats, (e) => void (e.outputs[0].outputFacets.outputStatistics.rowCount = 1.5)),
  event("nominal time without a start", "body.run.facets.nominalTime.nominalStartTime", (e) => void delete e.run.facets.nominalTime.nominalStartTime),
  event("nominal start not a date", "body.run.facets.nominalTime.nominalStartTime", (e) => void (e.run.facets.nominalTime.nominalStartTime = "2026-13-45")),
  event("parent without a run id", "body.run.facets.parent.run.runId", (e) => void delete e.run.facets.parent.run.runId),
  event("parent job without a name", "body.run.facets.parent.job.name", (e) => void delete e.run.facets.parent.job.name),
  event("error message not text", "body.run.facets.errorMessage.message", (e) => void (e.run.facets.errorMessage = { message: 500 })),
  event("dataset version as a number", "body.inputs.0.facets.version.datasetVersion", (e) => void (e.inputs[0].facets.version.datasetVersion = 7)),
  event(
    "subset partitions not a list",
    "body.outputs.0.outputFacets.subset.partitions",
    (e) => void (e.outputs[0].outputFacets.subset = { type: "partition", partitions: "2026-08-17" }),
  ),
  event(
    "subset partition with an empty identifier",
    "body.outputs.0.outputFacets.subset.outputCondition.partitions.0.identifier",
    (e) => void (e.outputs[0].outputFacets.subset = { outputCondition: { type: "partition", partitions: [{ identifier: "" }] } }),
  ),
  event("a DatasetEvent whose dataset has no name", "body.dataset.name", () => ({ eventTime: "2026-08-18T02:10:00Z", dataset: { namespace: "x" } })),
  event("a DatasetEvent that also names a job", "body", () => ({
    eventTime: "2026-08-18T02:10:00Z",
    dataset: { namespace: "x", name: "y" },
    job: { namespace: "x", name: "j" },
  })),
  event("a JobEvent whose output has no namespace", "body.outputs.0.namespace", (e) => void (delete e.run, delete e.outputs[0].namespace)),
  event(
    "a lone surrogate in an output's partition key",
    "body.outputs.0.outputFacets.subset.outputCondition.partitions.0.identifier",
    (e) => void (e.outputs[0].outputFacets = { subset: { outputCondition: { type: "partition", partitions: [{ identifier: "\ud800" }] } } }),
  ),
  event("a NUL character in a job name", "body.job.name", (e) => void (e.job.name = "a\u0000b")),
  event("an event dated in the year 9999", "body.eventTime", (e) => void (e.eventTime = "9999-12-31T00:00:00Z")),
  event("an event dated before 1970", "body.eventTime", (e) => void (e.eventTime = "0000-01-01T00:00:00Z")),
];
