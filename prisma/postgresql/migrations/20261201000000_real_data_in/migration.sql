-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN     "partitionsDeclared" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'task';

-- AlterTable
ALTER TABLE "LineageEdge" ADD COLUMN     "recordedAt" TIMESTAMP(3);

-- Node ids in Marquez's convention: the raw names, joined (earlier versions percent-encoded ":"
-- and "%" inside names). Rows whose raw id another row already holds keep their old id.
UPDATE "Task" SET "nodeId" = 'job:' || "namespace" || ':' || "name"
  WHERE "nodeId" <> 'job:' || "namespace" || ':' || "name"
    AND NOT EXISTS (SELECT 1 FROM "Task" AS t WHERE t."nodeId" = 'job:' || "Task"."namespace" || ':' || "Task"."name");
UPDATE "Dataset" SET "nodeId" = 'dataset:' || "namespace" || ':' || "name"
  WHERE "nodeId" <> 'dataset:' || "namespace" || ':' || "name"
    AND NOT EXISTS (SELECT 1 FROM "Dataset" AS d WHERE d."nodeId" = 'dataset:' || "Dataset"."namespace" || ':' || "Dataset"."name");
UPDATE "IngestedEvent" SET "jobNodeId" = REPLACE(REPLACE("jobNodeId", '%3A', ':'), '%25', '%')
  WHERE "jobNodeId" LIKE '%\%3A%' ESCAPE '\' OR "jobNodeId" LIKE '%\%25%' ESCAPE '\';
UPDATE "InvalidKey" SET "nodeId" = REPLACE(REPLACE("nodeId", '%3A', ':'), '%25', '%')
  WHERE "nodeId" LIKE '%\%3A%' ESCAPE '\' OR "nodeId" LIKE '%\%25%' ESCAPE '\';
UPDATE "Incident" SET "failedPairs" = REPLACE(REPLACE("failedPairs", '%3A', ':'), '%25', '%')
  WHERE "failedPairs" LIKE '%\%3A%' ESCAPE '\' OR "failedPairs" LIKE '%\%25%' ESCAPE '\';

-- A dataset whose definition someone set (anything but the default) has declared units.
UPDATE "Dataset" SET "partitionsDeclared" = true WHERE "partitionDef" <> '{"kind":"none"}';

-- Kept unit states were computed without due units and declared definitions: recompute.
DELETE FROM "UnitStateSnapshot";
