-- AlterTable
ALTER TABLE "Pipeline" ADD COLUMN     "autoIncidents" BOOLEAN NOT NULL DEFAULT false;
