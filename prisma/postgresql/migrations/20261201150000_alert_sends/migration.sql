-- One alert per receiver, claimed by the instance delivering it (exactly one delivery across consoles).
CREATE TABLE "AlertSend" (
    "id" TEXT NOT NULL,
    "alertId" TEXT NOT NULL,
    "receiver" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "claimedBy" TEXT NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "AlertSend_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "AlertSend_alertId_idx" ON "AlertSend"("alertId");
