import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConflictError } from "@/lib/domain/errors";
import { listCertificatesOf } from "../repositories/completeness/frontier-certificates";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { mergeFrontiers } from "./merge-frontiers";
import { putFrontierCertificate } from "./put-frontier-certificate";

const SOURCE = "dataset:events:clicks";
const at = new Date("2026-09-01T00:00:00Z");
const base = { source: SOURCE, domain: "event_time_ms", epoch: 1 };

// Seed 002: partitions A and B of one paginated source, each certified on its own; the merged
// frontier is their minimum with the weaker bound kept, and a late retry never moves anything.
describe.each(providersUnderTest())("frontier certificates on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    await t.db.dataset.create({ data: { nodeId: SOURCE, namespace: "events", name: "clicks" } });
  });
  afterAll(async () => t?.drop());

  it("advances by compare-and-swap, refuses a stale retry with 409 and a lower watermark with its reason", async () => {
    expect(await putFrontierCertificate({ ...base, partition: "A", expectedGeneration: 0, coordinate: 100, inclusive: false }, at, t.db)).toMatchObject({
      outcome: "advanced",
      certificate: { generation: 1, coordinate: 100, inclusive: false },
    });
    await putFrontierCertificate({ ...base, partition: "B", expectedGeneration: 0, coordinate: 100, inclusive: true }, at, t.db);
    await expect(putFrontierCertificate({ ...base, partition: "A", expectedGeneration: 0, coordinate: 140, inclusive: true }, at, t.db)).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(await putFrontierCertificate({ ...base, partition: "B", expectedGeneration: 1, coordinate: 90, inclusive: true }, at, t.db)).toMatchObject({
      outcome: "would-lower",
      certificate: { generation: 1, coordinate: 100 },
    });
    await expect(
      putFrontierCertificate({ ...base, source: "dataset:nope:x", partition: "A", expectedGeneration: 0, coordinate: 1, inclusive: true }, at, t.db),
    ).rejects.toThrow('no dataset "dataset:nope:x"');
  });

  it("merges to the minimum with the exclusive bound kept, and to the vector when a member lags an epoch", async () => {
    const [scalar] = mergeFrontiers(await listCertificatesOf(t.db, [SOURCE]));
    expect(scalar).toMatchObject({
      kind: "scalar",
      coordinate: 100,
      inclusive: false,
      statement: "complete through 100 (exclusive: every event_time_ms < 100)",
    });
    await t.db.frontierCertificate.create({
      data: { source: SOURCE, partition: "C", coordinate: 500, inclusive: true, domain: "event_time_ms", generation: 1, epoch: 2, updatedAt: at },
    });
    const [vector] = mergeFrontiers(await listCertificatesOf(t.db, [SOURCE]));
    expect(vector).toMatchObject({ kind: "vector", epoch: 2 });
    expect(vector!.statement).toBe("no single frontier: A is certified in epoch 1, not 2; B is certified in epoch 1, not 2");
  });
});
