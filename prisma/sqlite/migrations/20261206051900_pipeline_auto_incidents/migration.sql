-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Pipeline" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "owner" TEXT NOT NULL DEFAULT '',
    "autoIncidents" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Pipeline" ("createdAt", "description", "id", "name", "namespace", "owner") SELECT "createdAt", "description", "id", "name", "namespace", "owner" FROM "Pipeline";
DROP TABLE "Pipeline";
ALTER TABLE "new_Pipeline" RENAME TO "Pipeline";
CREATE UNIQUE INDEX "Pipeline_namespace_name_key" ON "Pipeline"("namespace", "name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
