import { RefusedError } from "@/lib/domain/errors";
import { BIDI_CONTROL, NAME_MAX } from "@/lib/contracts/plain-text";
import type { Tx } from "../../repositories/database";
import { ensurePipelines } from "../../repositories/lineage/catalog-writes";
import type { PipelineRecord } from "../../repositories/pipelines/orchestrator-connections";
import type { PipelineRef } from "./to-openlineage";

/** The namespace of a Dagster pipeline named without one. */
export const DAGSTER_NAMESPACE = "dagster";

/** Dagster's own rule for names (dagster._core.definitions.utils.VALID_NAME_REGEX), asset groups included. */
const DAGSTER_NAME = /^[A-Za-z0-9_]+$/;

/**
 * The pipeline an admin connects to Dagster before Reparo has seen any of it. Reparo learns a
 * Dagster pipeline from Dagster itself (the source reads the runs of the pipeline's connection),
 * so the connection comes first and names the pipeline — its Dagster asset group — as
 * `<namespace>/<group>` (the namespace of its jobs and datasets in Reparo) or `<group>`
 * (namespace `dagster`). The group must be a name Dagster allows (letters, digits, `_`), the
 * namespace a producer's namespace: anything else is refused before anything is written.
 * E.g. `dagster-lab/lab_orders` → { namespace: "dagster-lab", name: "lab_orders" }.
 */
export function dagsterPipelineRef(idOrName: string): PipelineRef {
  const slash = idOrName.lastIndexOf("/");
  const ref = slash >= 0 ? { namespace: idOrName.slice(0, slash), name: idOrName.slice(slash + 1) } : { namespace: DAGSTER_NAMESPACE, name: idOrName };
  if (!DAGSTER_NAME.test(ref.name) || ref.name.length > NAME_MAX)
    throw new RefusedError(
      `params.id: ${JSON.stringify(ref.name)} is not a Dagster asset group (letters, digits and _): name the pipeline <namespace>/<asset group>`,
    );
  if (
    ref.namespace.trim() !== ref.namespace ||
    ref.namespace.length === 0 ||
    ref.namespace.length > NAME_MAX ||
    BIDI_CONTROL.test(ref.namespace) ||
    /\p{Cc}/u.test(ref.namespace)
  )
    throw new RefusedError(
      `params.id: the namespace ${JSON.stringify(ref.namespace)} must be non-empty, without surrounding spaces, control or bidirectional characters`,
    );
  return ref;
}

/** Creates the pipeline (in the transaction that connects it and audits that), or finds it when it is there. */
export async function createDagsterPipeline(tx: Tx, ref: PipelineRef): Promise<PipelineRecord> {
  const ids = await ensurePipelines(tx, [ref]);
  const id = [...ids.values()][0];
  if (id === undefined) throw new Error(`the pipeline ${ref.namespace}/${ref.name} could not be created`);
  return { id, namespace: ref.namespace, name: ref.name };
}
