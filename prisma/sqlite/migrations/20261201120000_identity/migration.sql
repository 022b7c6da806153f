-- AlterTable
ALTER TABLE "User" ADD COLUMN "namespaces" TEXT NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "namespaces" TEXT NOT NULL DEFAULT '[]',
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    "revokedBy" TEXT
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_name_key" ON "ApiToken"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_hash_key" ON "ApiToken"("hash");

-- The audit log is append-only in the database too: an UPDATE or DELETE is refused.
CREATE TRIGGER "AuditEntry_no_update" BEFORE UPDATE ON "AuditEntry" BEGIN SELECT RAISE(ABORT, 'AuditEntry is append-only'); END;
CREATE TRIGGER "AuditEntry_no_delete" BEFORE DELETE ON "AuditEntry" BEGIN SELECT RAISE(ABORT, 'AuditEntry is append-only'); END;
