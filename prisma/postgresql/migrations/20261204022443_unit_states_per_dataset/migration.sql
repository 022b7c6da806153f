-- CreateTable
CREATE TABLE "UnitStateKept" (
    "datasetId" TEXT NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "UnitStateKept_pkey" PRIMARY KEY ("datasetId")
);
