-- AlterTable: where each repair-safety fact came from (lib/domain/fact-sources.ts).
ALTER TABLE "Task" ADD COLUMN     "factSources" TEXT NOT NULL DEFAULT '{}';
-- Facts held before provenance was kept were set by a person or by a catalog loaded as declared:
-- recorded as declared, so no lesser source overwrites them.
UPDATE "Task" SET "factSources" = jsonb_strip_nulls(jsonb_build_object(
  'writeMode', CASE WHEN "writeMode" IS NOT NULL THEN 'declared' END,
  'sideEffect', CASE WHEN "sideEffect" IS NOT NULL THEN 'declared' END,
  'dependsOnOwnPast', CASE WHEN "dependsOnOwnPast" IS NOT NULL THEN 'declared' END,
  'publishMode', CASE WHEN "publishMode" IS NOT NULL THEN 'declared' END,
  'owner', CASE WHEN "owner" <> '' THEN 'declared' END
))::text;
