-- DropIndex
DROP INDEX "Attempt_taskId_unitKey_idx";

-- DropIndex
DROP INDEX "Publish_datasetId_unitKey_idx";

-- CreateIndex
CREATE INDEX "Attempt_taskId_unitKey_startedAt_tryNumber_runId_status_rowsWritten_endedAt_error_idx" ON "Attempt"("taskId", "unitKey", "startedAt", "tryNumber", "runId", "status", "rowsWritten", "endedAt", "error");

-- CreateIndex
CREATE INDEX "Publish_datasetId_unitKey_publishedAt_runId_rowCount_inputVersion_codeVersion_idx" ON "Publish"("datasetId", "unitKey", "publishedAt", "runId", "rowCount", "inputVersion", "codeVersion");
