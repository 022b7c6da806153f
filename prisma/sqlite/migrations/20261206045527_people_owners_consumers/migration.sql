-- CreateTable
CREATE TABLE "Team" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "people" TEXT NOT NULL DEFAULT '[]',
    "channel" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Consumer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "key" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reads" TEXT NOT NULL DEFAULT '[]',
    "people" TEXT NOT NULL DEFAULT '[]',
    "channel" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "nodeId" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "pipelineId" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'table',
    "external" BOOLEAN NOT NULL DEFAULT false,
    "owner" TEXT NOT NULL DEFAULT '',
    "factSources" TEXT NOT NULL DEFAULT '{}',
    "partitionDef" TEXT NOT NULL DEFAULT '{"kind":"none"}',
    "rowCountTolerance" REAL NOT NULL DEFAULT 0.05,
    "sourceImmutable" BOOLEAN,
    "retentionDays" INTEGER,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "partitionsDeclared" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Dataset_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "Pipeline" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Dataset" ("createdAt", "description", "external", "id", "kind", "name", "namespace", "nodeId", "partitionDef", "partitionsDeclared", "pipelineId", "retentionDays", "rowCountTolerance", "sourceImmutable", "updatedAt") SELECT "createdAt", "description", "external", "id", "kind", "name", "namespace", "nodeId", "partitionDef", "partitionsDeclared", "pipelineId", "retentionDays", "rowCountTolerance", "sourceImmutable", "updatedAt" FROM "Dataset";
DROP TABLE "Dataset";
ALTER TABLE "new_Dataset" RENAME TO "Dataset";
CREATE UNIQUE INDEX "Dataset_nodeId_key" ON "Dataset"("nodeId");
CREATE INDEX "Dataset_pipelineId_idx" ON "Dataset"("pipelineId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Consumer_key_key" ON "Consumer"("key");

-- CreateIndex
CREATE UNIQUE INDEX "Consumer_nodeId_key" ON "Consumer"("nodeId");
