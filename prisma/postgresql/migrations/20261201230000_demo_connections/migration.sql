-- A database whose demo world was loaded before orchestrator and warehouse connections existed: what
-- the demo's own executor ran (it alone writes WarehouseRow) gets the connections a fresh demo load
-- gives it — its pipelines the `local` orchestrator, its datasets' namespaces the `demo` warehouse.
-- Nothing that already has a connection is touched; a database without demo rows gets nothing.
INSERT INTO "OrchestratorConnection" ("pipelineId", "kind", "config", "updatedBy", "updatedAt")
SELECT DISTINCT p."id", 'local', '{"kind":"local"}', 'migration', CURRENT_TIMESTAMP
FROM "Pipeline" p
WHERE NOT EXISTS (SELECT 1 FROM "OrchestratorConnection" c WHERE c."pipelineId" = p."id")
  AND (EXISTS (SELECT 1 FROM "WarehouseRow" w JOIN "Dataset" d ON d."id" = w."datasetId" WHERE d."pipelineId" = p."id")
    OR EXISTS (SELECT 1 FROM "WarehouseRow" w JOIN "Attempt" a ON a."id" = w."attemptId" JOIN "Task" t ON t."id" = a."taskId" WHERE t."pipelineId" = p."id"));

INSERT INTO "WarehouseConnection" ("namespace", "kind", "config", "updatedBy", "updatedAt")
SELECT DISTINCT d."namespace", 'demo', '{"kind":"demo"}', 'migration', CURRENT_TIMESTAMP
FROM "Dataset" d
WHERE NOT EXISTS (SELECT 1 FROM "WarehouseConnection" c WHERE c."namespace" = d."namespace")
  AND EXISTS (SELECT 1 FROM "WarehouseRow" w WHERE w."datasetId" = d."id");
