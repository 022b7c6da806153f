-- CreateTable
CREATE TABLE "UnitStateSnapshot" (
    "id" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UnitStateSnapshot_pkey" PRIMARY KEY ("id")
);

