-- Who sent each ingested event, publish and source count (a token as token:<name>, a person by id).
ALTER TABLE "IngestedEvent" ADD COLUMN "submittedBy" TEXT;
ALTER TABLE "Publish" ADD COLUMN "submittedBy" TEXT;
ALTER TABLE "SourceCount" ADD COLUMN "submittedBy" TEXT;
