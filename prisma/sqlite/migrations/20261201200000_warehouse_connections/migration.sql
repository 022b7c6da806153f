-- Where a dataset namespace's rows live, so a unit can be cleaned for real (secrets named, never stored).
CREATE TABLE "WarehouseConnection" (
    "namespace" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "updatedBy" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
