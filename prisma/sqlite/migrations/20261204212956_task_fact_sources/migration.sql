-- AlterTable: where each repair-safety fact came from (lib/domain/fact-sources.ts).
ALTER TABLE "Task" ADD COLUMN "factSources" TEXT NOT NULL DEFAULT '{}';
-- Facts held before provenance was kept were set by a person or by a catalog loaded as declared:
-- recorded as declared, so no lesser source overwrites them.
UPDATE "Task" SET "factSources" = (
  SELECT json_group_object(k, 'declared') FROM (
    SELECT 'writeMode' AS k WHERE "Task"."writeMode" IS NOT NULL
    UNION ALL SELECT 'sideEffect' WHERE "Task"."sideEffect" IS NOT NULL
    UNION ALL SELECT 'dependsOnOwnPast' WHERE "Task"."dependsOnOwnPast" IS NOT NULL
    UNION ALL SELECT 'publishMode' WHERE "Task"."publishMode" IS NOT NULL
    UNION ALL SELECT 'owner' WHERE "Task"."owner" <> ''
  )
);
