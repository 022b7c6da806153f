-- CreateTable
CREATE TABLE "UnitChange" (
    "seq" SERIAL NOT NULL,
    "datasetId" TEXT,
    "taskId" TEXT,
    "unitKey" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UnitChange_pkey" PRIMARY KEY ("seq")
);

-- Kept unit states were computed without a change log to continue from: compute them again.
DELETE FROM "UnitStateSnapshot";
