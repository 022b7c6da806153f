-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Publish" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "attemptId" TEXT,
    "publishedAt" DATETIME NOT NULL,
    "inputVersion" TEXT NOT NULL DEFAULT '',
    "codeVersion" TEXT NOT NULL DEFAULT '',
    "rowCount" INTEGER,
    "submittedBy" TEXT,
    CONSTRAINT "Publish_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Publish_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Publish" ("attemptId", "codeVersion", "datasetId", "id", "inputVersion", "publishedAt", "rowCount", "runId", "submittedBy", "unitKey") SELECT "attemptId", "codeVersion", "datasetId", "id", "inputVersion", "publishedAt", "rowCount", "runId", "submittedBy", "unitKey" FROM "Publish";
DROP TABLE "Publish";
ALTER TABLE "new_Publish" RENAME TO "Publish";
CREATE INDEX "Publish_datasetId_unitKey_idx" ON "Publish"("datasetId", "unitKey");
CREATE INDEX "Publish_runId_idx" ON "Publish"("runId");
CREATE INDEX "Publish_publishedAt_idx" ON "Publish"("publishedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
