-- AlterTable
ALTER TABLE "Incident" ADD COLUMN     "commander" TEXT,
ADD COLUMN     "severity" TEXT,
ADD COLUMN     "severityBasis" TEXT;
