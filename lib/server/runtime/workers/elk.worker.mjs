// The layout thread: elkjs's bundled build in a worker thread, answering one message per graph.
// A plain module file (not code in a string), so the bundler follows its import of elkjs from here
// (next build), and Node resolves it from this file's folder when run unbundled (scripts, tests).
import { parentPort } from "node:worker_threads";
import ELK from "elkjs/lib/elk.bundled.js";

const elk = new ELK();
parentPort.on("message", ({ id, graph }) => {
  elk.layout(graph).then(
    (result) => parentPort.postMessage({ id, result }),
    (e) => parentPort.postMessage({ id, error: e && e.message ? e.message : String(e) }),
  );
});
