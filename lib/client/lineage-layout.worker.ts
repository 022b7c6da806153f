/// <reference lib="webworker" />
// ELK's bundled build runs here, in dedicated workers, so a 10,000-node layout never blocks the page.
import ELK from "elkjs/lib/elk.bundled.js";
import { layoutPipelines, placePipelines, type LayoutPlan, type PipelineJob, type PipelineLaid } from "./layout-lineage";

const elk = new ELK();

export type LayoutRequest =
  | { id: number; kind: "pipelines"; jobs: PipelineJob[] }
  | { id: number; kind: "place"; plan: Omit<LayoutPlan, "jobs">; laid: PipelineLaid[] };

// Assigned after the import: elk.bundled.js installs its own self.onmessage when it finds itself in a worker.
self.onmessage = async (event: MessageEvent<LayoutRequest>) => {
  const request = event.data;
  try {
    const result = request.kind === "pipelines" ? await layoutPipelines(elk, request.jobs) : await placePipelines(elk, request.plan, request.laid);
    self.postMessage({ id: request.id, result });
  } catch (e) {
    self.postMessage({ id: request.id, error: e instanceof Error ? e.message : String(e) });
  }
};
