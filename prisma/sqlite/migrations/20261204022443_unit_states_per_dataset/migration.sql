-- CreateTable
CREATE TABLE "UnitStateKept" (
    "datasetId" TEXT NOT NULL PRIMARY KEY,
    "body" TEXT NOT NULL
);
