-- Where a pipeline's repairs run (its orchestrator connection; secrets named, never stored).
CREATE TABLE "OrchestratorConnection" (
    "pipelineId" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "updatedBy" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
