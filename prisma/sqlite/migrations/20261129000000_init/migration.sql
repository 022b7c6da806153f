-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "displayName" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Pipeline" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "owner" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "nodeId" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "pipelineId" TEXT,
    "writeMode" TEXT,
    "sideEffect" TEXT,
    "dependsOnOwnPast" BOOLEAN,
    "publishMode" TEXT,
    "owner" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Task_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "Pipeline" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "nodeId" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "pipelineId" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'table',
    "external" BOOLEAN NOT NULL DEFAULT false,
    "partitionDef" TEXT NOT NULL DEFAULT '{"kind":"none"}',
    "rowCountTolerance" REAL NOT NULL DEFAULT 0.05,
    "sourceImmutable" BOOLEAN,
    "retentionDays" INTEGER,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Dataset_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "Pipeline" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LineageEdge" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "mapping" TEXT NOT NULL DEFAULT 'identity',
    "mappingParams" TEXT NOT NULL DEFAULT '{}',
    "validFrom" DATETIME NOT NULL,
    "validTo" DATETIME,
    "observedRunId" TEXT,
    CONSTRAINT "LineageEdge_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "LineageEdge_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PartitionKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "registeredAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" DATETIME,
    CONSTRAINT "PartitionKey_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "externalId" TEXT,
    "pipelineId" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "rootRunId" TEXT,
    "parentRunId" TEXT,
    "repairNumber" INTEGER NOT NULL DEFAULT 0,
    "incidentId" TEXT,
    "parameters" TEXT NOT NULL DEFAULT '{}',
    "codeVersion" TEXT NOT NULL DEFAULT '',
    "triggeredBy" TEXT NOT NULL DEFAULT '',
    "nominalTime" DATETIME,
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Run_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "Pipeline" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Attempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "tryNumber" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "rowsWritten" INTEGER,
    "error" TEXT,
    "codeVersion" TEXT NOT NULL DEFAULT '',
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    CONSTRAINT "Attempt_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Attempt_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Publish" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "attemptId" TEXT,
    "publishedAt" DATETIME NOT NULL,
    "inputVersion" TEXT NOT NULL DEFAULT '',
    "codeVersion" TEXT NOT NULL DEFAULT '',
    "rowCount" INTEGER NOT NULL,
    CONSTRAINT "Publish_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Publish_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SourceCount" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "measuredAt" DATETIME NOT NULL,
    "source" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "SourceCount_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "UnitMark" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "auditEntryId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "clearedAt" DATETIME,
    CONSTRAINT "UnitMark_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "InvalidKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "nodeId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "runId" TEXT,
    "observedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Incident" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "pipelineId" TEXT,
    "originRunId" TEXT,
    "failedPairs" TEXT NOT NULL DEFAULT '[]',
    "closure" TEXT,
    "openedBy" TEXT NOT NULL,
    "detectedAt" DATETIME NOT NULL,
    "openedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" DATETIME,
    "closedReason" TEXT
);

-- CreateTable
CREATE TABLE "RepairPlan" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "incidentId" TEXT NOT NULL,
    "strategy" TEXT NOT NULL,
    "options" TEXT NOT NULL DEFAULT '{}',
    "plan" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RepairPlan_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RepairClaim" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "claimedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "actorRole" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "reason" TEXT NOT NULL,
    "incidentId" TEXT,
    "targets" TEXT NOT NULL DEFAULT '[]',
    "before" TEXT NOT NULL DEFAULT 'null',
    "after" TEXT NOT NULL DEFAULT 'null',
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "WarehouseRow" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "datasetId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "rowKey" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "attemptId" TEXT,
    "writtenAt" DATETIME NOT NULL,
    CONSTRAINT "WarehouseRow_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExternalDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "sentAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "IngestedEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventHash" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "jobNodeId" TEXT NOT NULL,
    "externalRun" TEXT NOT NULL,
    "eventTime" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "body" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "RejectedEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "receivedAt" DATETIME NOT NULL,
    "endpoint" TEXT NOT NULL,
    "fieldPath" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "body" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Pipeline_namespace_name_key" ON "Pipeline"("namespace", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Task_nodeId_key" ON "Task"("nodeId");

-- CreateIndex
CREATE INDEX "Task_pipelineId_idx" ON "Task"("pipelineId");

-- CreateIndex
CREATE UNIQUE INDEX "Dataset_nodeId_key" ON "Dataset"("nodeId");

-- CreateIndex
CREATE INDEX "Dataset_pipelineId_idx" ON "Dataset"("pipelineId");

-- CreateIndex
CREATE INDEX "LineageEdge_taskId_direction_idx" ON "LineageEdge"("taskId", "direction");

-- CreateIndex
CREATE INDEX "LineageEdge_datasetId_direction_idx" ON "LineageEdge"("datasetId", "direction");

-- CreateIndex
CREATE INDEX "LineageEdge_validFrom_validTo_idx" ON "LineageEdge"("validFrom", "validTo");

-- CreateIndex
CREATE UNIQUE INDEX "PartitionKey_datasetId_key_key" ON "PartitionKey"("datasetId", "key");

-- CreateIndex
CREATE INDEX "Run_pipelineId_startedAt_idx" ON "Run"("pipelineId", "startedAt");

-- CreateIndex
CREATE INDEX "Run_rootRunId_idx" ON "Run"("rootRunId");

-- CreateIndex
CREATE INDEX "Run_incidentId_idx" ON "Run"("incidentId");

-- CreateIndex
CREATE INDEX "Run_externalId_idx" ON "Run"("externalId");

-- CreateIndex
CREATE INDEX "Run_kind_startedAt_idx" ON "Run"("kind", "startedAt");

-- CreateIndex
CREATE INDEX "Attempt_taskId_unitKey_idx" ON "Attempt"("taskId", "unitKey");

-- CreateIndex
CREATE INDEX "Attempt_status_idx" ON "Attempt"("status");

-- CreateIndex
CREATE UNIQUE INDEX "Attempt_runId_taskId_unitKey_tryNumber_key" ON "Attempt"("runId", "taskId", "unitKey", "tryNumber");

-- CreateIndex
CREATE INDEX "Publish_datasetId_unitKey_idx" ON "Publish"("datasetId", "unitKey");

-- CreateIndex
CREATE INDEX "Publish_runId_idx" ON "Publish"("runId");

-- CreateIndex
CREATE INDEX "Publish_publishedAt_idx" ON "Publish"("publishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "SourceCount_datasetId_unitKey_key" ON "SourceCount"("datasetId", "unitKey");

-- CreateIndex
CREATE INDEX "UnitMark_datasetId_unitKey_idx" ON "UnitMark"("datasetId", "unitKey");

-- CreateIndex
CREATE UNIQUE INDEX "InvalidKey_nodeId_unitKey_key" ON "InvalidKey"("nodeId", "unitKey");

-- CreateIndex
CREATE INDEX "Incident_status_idx" ON "Incident"("status");

-- CreateIndex
CREATE INDEX "RepairPlan_incidentId_idx" ON "RepairPlan"("incidentId");

-- CreateIndex
CREATE INDEX "RepairClaim_runId_idx" ON "RepairClaim"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "RepairClaim_taskId_unitKey_key" ON "RepairClaim"("taskId", "unitKey");

-- CreateIndex
CREATE UNIQUE INDEX "AuditEntry_hash_key" ON "AuditEntry"("hash");

-- CreateIndex
CREATE INDEX "AuditEntry_incidentId_idx" ON "AuditEntry"("incidentId");

-- CreateIndex
CREATE INDEX "AuditEntry_kind_at_idx" ON "AuditEntry"("kind", "at");

-- CreateIndex
CREATE INDEX "WarehouseRow_datasetId_unitKey_idx" ON "WarehouseRow"("datasetId", "unitKey");

-- CreateIndex
CREATE INDEX "WarehouseRow_datasetId_unitKey_rowKey_idx" ON "WarehouseRow"("datasetId", "unitKey", "rowKey");

-- CreateIndex
CREATE INDEX "ExternalDelivery_taskId_unitKey_idx" ON "ExternalDelivery"("taskId", "unitKey");

-- CreateIndex
CREATE UNIQUE INDEX "ExternalDelivery_taskId_idempotencyKey_key" ON "ExternalDelivery"("taskId", "idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "IngestedEvent_eventHash_key" ON "IngestedEvent"("eventHash");

-- CreateIndex
CREATE INDEX "IngestedEvent_receivedAt_idx" ON "IngestedEvent"("receivedAt");

-- CreateIndex
CREATE INDEX "IngestedEvent_jobNodeId_externalRun_idx" ON "IngestedEvent"("jobNodeId", "externalRun");

-- CreateIndex
CREATE INDEX "RejectedEvent_receivedAt_idx" ON "RejectedEvent"("receivedAt");

