-- CreateTable
CREATE TABLE "PendingFold" (
    "seq" SERIAL NOT NULL,
    "eventHash" TEXT NOT NULL,
    "acceptedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PendingFold_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "PendingFold_eventHash_key" ON "PendingFold"("eventHash");
