-- CreateTable
CREATE TABLE "FrontierCertificate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "source" TEXT NOT NULL,
    "partition" TEXT NOT NULL,
    "coordinate" REAL,
    "inclusive" BOOLEAN,
    "domain" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL,
    "token" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AlertDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "alertId" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "tryNumber" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "httpStatus" INTEGER,
    "error" TEXT,
    "body" TEXT NOT NULL,
    "at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "FrontierCertificate_source_idx" ON "FrontierCertificate"("source");

-- CreateIndex
CREATE UNIQUE INDEX "FrontierCertificate_source_partition_key" ON "FrontierCertificate"("source", "partition");

-- CreateIndex
CREATE INDEX "AlertDelivery_alertId_idx" ON "AlertDelivery"("alertId");

-- CreateIndex
CREATE INDEX "AlertDelivery_at_idx" ON "AlertDelivery"("at");

