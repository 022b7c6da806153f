import { GET as alerts } from "@/app/api/v1/alerts/route";
import { GET as audit } from "@/app/api/v1/audit/route";
import { GET as auditVerify } from "@/app/api/v1/audit/verify/route";
import { GET as closure } from "@/app/api/v1/closure/route";
import { GET as completenessDatasets } from "@/app/api/v1/completeness/datasets/route";
import { GET as completeness } from "@/app/api/v1/completeness/route";
import { GET as history } from "@/app/api/v1/history/route";
import { GET as incidents } from "@/app/api/v1/incidents/route";
import { GET as ingestion } from "@/app/api/v1/ingestion/route";
import { GET as failures } from "@/app/api/v1/lineage-graph/failures/route";
import { GET as holdings } from "@/app/api/v1/lineage-graph/holdings/route";
import { GET as layout } from "@/app/api/v1/lineage-graph/layout/route";
import { GET as nodePeople } from "@/app/api/v1/lineage-graph/node-people/route";
import { GET as closurePeople } from "@/app/api/v1/lineage-graph/people/route";
import { GET as lineageGraph } from "@/app/api/v1/lineage-graph/route";
import { GET as overview } from "@/app/api/v1/overview/route";
import { GET as cell } from "@/app/api/v1/units/cell/route";
import { GET as matrix } from "@/app/api/v1/units/matrix/route";
import { GET as health } from "@/app/api/health/route";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

export interface RouteAnswer {
  path: string;
  status: number;
  body: string;
}

const noParams = { params: Promise.resolve({}) };

/** GET a route handler in-process, as a browser would (with the given identity header). */
export async function getRoute(handler: Handler, path: string, user = "viewer-bot", params?: Record<string, string>): Promise<RouteAnswer> {
  const res = await handler(
    new Request(`http://console.test${path}`, { headers: { "x-reparo-user": user } }),
    params ? { params: Promise.resolve(params) } : noParams,
  );
  return { path, status: res.status, body: await res.text() };
}

export interface ReadTargets {
  /** Node ids whose closure (both ways) and holdings are read. */
  nodes: string[];
  /** Dataset node ids whose completeness is read. */
  datasets: string[];
  /** (dataset, unit) pairs whose cell is read. */
  cells: [string, string][];
  /** Whether to read the ELK layout too (the costliest read). */
  layout?: boolean;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

/**
 * Every read route the console's pages call, in-process against the database DATABASE_URL names:
 * the answers, so a test can assert none is a 5xx (and look at the bodies when one is).
 */
export async function readEveryRoute(targets: ReadTargets): Promise<RouteAnswer[]> {
  const answers: RouteAnswer[] = [];
  const get = async (handler: Handler, path: string) => answers.push(await getRoute(handler, path));
  await get(health, "/api/health");
  await get(overview, "/api/v1/overview");
  await get(alerts, "/api/v1/alerts");
  await get(matrix, "/api/v1/units/matrix");
  await get(matrix, "/api/v1/units/matrix?cells=runs");
  await get(lineageGraph, "/api/v1/lineage-graph");
  if (targets.layout) await get(layout, "/api/v1/lineage-graph/layout");
  await get(failures, "/api/v1/lineage-graph/failures");
  await get(completenessDatasets, "/api/v1/completeness/datasets");
  await get(history, "/api/v1/history");
  await get(incidents, "/api/v1/incidents");
  await get(audit, "/api/v1/audit");
  await get(auditVerify, "/api/v1/audit/verify");
  await get(ingestion, "/api/v1/ingestion");
  for (const nodeId of targets.nodes) {
    await get(closure, `/api/v1/closure?${q({ nodeId })}`);
    await get(closure, `/api/v1/closure?${q({ nodeId, direction: "upstream" })}`);
    await get(holdings, `/api/v1/lineage-graph/holdings?${q({ nodeId })}`);
    await get(closurePeople, `/api/v1/lineage-graph/people?${q({ nodeId })}`);
    await get(nodePeople, `/api/v1/lineage-graph/node-people?${q({ nodeId })}`);
  }
  for (const dataset of targets.datasets) await get(completeness, `/api/v1/completeness?${q({ dataset })}`);
  for (const [dataset, unit] of targets.cells) await get(cell, `/api/v1/units/cell?${q({ dataset, unit })}`);
  return answers;
}

/** The answers that are server errors, shortened for an assertion message. */
export function serverErrors(answers: RouteAnswer[]): string[] {
  return answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${a.path}: ${a.body.slice(0, 300)}`);
}
