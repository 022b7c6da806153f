-- CreateTable
CREATE TABLE "PendingFold" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "eventHash" TEXT NOT NULL,
    "acceptedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "PendingFold_eventHash_key" ON "PendingFold"("eventHash");
