/// <reference lib="webworker" />
// ELK's bundled build runs here, in a dedicated worker, so a 10,000-node layout never blocks the page.
import ELK from "elkjs/lib/elk.bundled.js";
import { layoutLineage, type LayoutInput } from "./layout-lineage";

const elk = new ELK();

// Assigned after the import: elk.bundled.js installs its own self.onmessage when it finds itself in a worker.
self.onmessage = async (event: MessageEvent<{ id: number; input: LayoutInput }>) => {
  const { id, input } = event.data;
  try {
    const result = await layoutLineage(elk, input);
    self.postMessage({ id, result });
  } catch (e) {
    self.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
};
