-- CreateTable
CREATE TABLE "UnitStateSnapshot" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "body" TEXT NOT NULL,
    "computedAt" DATETIME NOT NULL
);

