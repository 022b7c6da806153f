-- CreateTable
CREATE TABLE "Notice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "incidentId" TEXT NOT NULL,
    "recipientKey" TEXT NOT NULL,
    "recipientName" TEXT NOT NULL,
    "channelKind" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "units" TEXT NOT NULL DEFAULT '[]',
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" DATETIME NOT NULL,
    "claimedBy" TEXT,
    "claimedUntil" DATETIME,
    "sentAt" DATETIME,
    "ackTokenHash" TEXT NOT NULL,
    "acknowledgedAt" DATETIME,
    "acknowledgedBy" TEXT,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Notice_ackTokenHash_key" ON "Notice"("ackTokenHash");

-- CreateIndex
CREATE INDEX "Notice_incidentId_idx" ON "Notice"("incidentId");

-- CreateIndex
CREATE INDEX "Notice_status_nextAttemptAt_idx" ON "Notice"("status", "nextAttemptAt");
