-- Where a pipeline's repairs run (its orchestrator connection; secrets named, never stored).
CREATE TABLE "OrchestratorConnection" (
    "pipelineId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "updatedBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "OrchestratorConnection_pkey" PRIMARY KEY ("pipelineId")
);
