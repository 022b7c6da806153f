-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN     "factSources" TEXT NOT NULL DEFAULT '{}',
ADD COLUMN     "owner" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "Team" (
    "name" TEXT NOT NULL,
    "people" TEXT NOT NULL DEFAULT '[]',
    "channel" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Team_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "Consumer" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reads" TEXT NOT NULL DEFAULT '[]',
    "people" TEXT NOT NULL DEFAULT '[]',
    "channel" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Consumer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Consumer_key_key" ON "Consumer"("key");

-- CreateIndex
CREATE UNIQUE INDEX "Consumer_nodeId_key" ON "Consumer"("nodeId");
