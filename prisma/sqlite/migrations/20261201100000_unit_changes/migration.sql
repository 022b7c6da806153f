-- CreateTable
CREATE TABLE "UnitChange" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "datasetId" TEXT,
    "taskId" TEXT,
    "unitKey" TEXT NOT NULL,
    "at" DATETIME NOT NULL
);

-- Kept unit states were computed without a change log to continue from: compute them again.
DELETE FROM "UnitStateSnapshot";
