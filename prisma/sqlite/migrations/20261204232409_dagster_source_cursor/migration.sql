-- CreateTable
CREATE TABLE "SourceCursor" (
    "pipelineId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "cursor" TEXT NOT NULL,
    "polledAt" DATETIME NOT NULL,
    "lastError" TEXT,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("pipelineId", "source")
);
