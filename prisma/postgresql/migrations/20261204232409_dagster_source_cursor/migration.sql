-- CreateTable
CREATE TABLE "SourceCursor" (
    "pipelineId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "cursor" TEXT NOT NULL,
    "polledAt" TIMESTAMP(3) NOT NULL,
    "lastError" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SourceCursor_pkey" PRIMARY KEY ("pipelineId","source")
);
