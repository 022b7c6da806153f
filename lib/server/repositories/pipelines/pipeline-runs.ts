import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

/** What an adapter may ask of one ingested run: its pipeline, the producer's id for it, its start and parameters. */
export interface PipelineRunFacts {
  pipelineId: string | null;
  externalId: string | null;
  startedAt: Date | null;
  /** As ingested: JSON text. */
  parameters: string;
}

export async function pipelineRunFacts(db: Db | Tx, runId: string): Promise<PipelineRunFacts | null> {
  return prismaOf(db).run.findUnique({ where: { id: runId }, select: { pipelineId: true, externalId: true, startedAt: true, parameters: true } });
}

/** The parameters (JSON text) of a pipeline's latest runs whose parameters contain `text`, latest first. */
export async function latestRunParameters(db: Db | Tx, pipelineId: string, text: string, take: number): Promise<string[]> {
  const runs = await prismaOf(db).run.findMany({
    where: { pipelineId, parameters: { contains: text } },
    orderBy: { startedAt: "desc" },
    take,
    select: { parameters: true },
  });
  return runs.map((r) => r.parameters);
}

/** How many of a pipeline's runs started after `since`, leaving out the run `exceptRunId` and runs of kind `exceptKind`. */
export async function countRunsStartedAfter(db: Db | Tx, pipelineId: string, since: Date, except: { runId: string; kind: string }): Promise<number> {
  return prismaOf(db).run.count({ where: { pipelineId, id: { not: except.runId }, kind: { not: except.kind }, startedAt: { gt: since } } });
}
