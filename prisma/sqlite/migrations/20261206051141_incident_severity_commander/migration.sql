-- AlterTable
ALTER TABLE "Incident" ADD COLUMN "commander" TEXT;
ALTER TABLE "Incident" ADD COLUMN "severity" TEXT;
ALTER TABLE "Incident" ADD COLUMN "severityBasis" TEXT;
