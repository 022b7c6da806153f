-- AlterTable
ALTER TABLE "Publish" ALTER COLUMN "rowCount" DROP NOT NULL;
