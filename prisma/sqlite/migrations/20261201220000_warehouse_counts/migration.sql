-- The rows a unit holds in its own warehouse, as the team counted them: measured evidence for units Reparo cannot count.
CREATE TABLE "WarehouseCount" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "measuredAt" DATETIME NOT NULL,
    "source" TEXT NOT NULL DEFAULT '',
    "submittedBy" TEXT,
    CONSTRAINT "WarehouseCount_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "WarehouseCount_datasetId_unitKey_key" ON "WarehouseCount"("datasetId", "unitKey");

-- A cleaning declared outside Reparo is believed from the count of 0 rows that evidenced it (kept, so a later count of the repaired rows does not undo it).
ALTER TABLE "UnitMark" ADD COLUMN "evidencedAt" DATETIME;
