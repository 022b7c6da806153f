import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { appendAudit } from "./append-audit";
import { verifyAuditChain } from "./verify-audit-chain";
import { GENESIS_HASH } from "./hash-audit-entry";

describe.each(providersUnderTest())("audit log on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
  });
  afterAll(async () => t?.drop());

  const note = (i: number) => ({ kind: "note.added" as const, actor: "ana", actorRole: "operator", reason: `note ${i}`, before: null, after: { note: `n${i}` } });

  it("chains entries by hash, in order, and the chain verifies", async () => {
    const a = await t.db.$transaction((tx) => appendAudit(tx, note(1), new Date("2026-08-18T09:00:00Z")));
    const b = await t.db.$transaction((tx) => appendAudit(tx, note(2), new Date("2026-08-18T09:01:00Z")));
    expect(a.prevHash).toBe(GENESIS_HASH);
    expect(b.prevHash).toBe(a.hash);
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true, entries: 2, headHash: b.hash, brokenAt: null });
  });

  it("20 concurrent appends still form one chain (appends are serialized)", async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => t.db.$transaction((tx) => appendAudit(tx, note(100 + i)), { timeout: 30_000, maxWait: 30_000 })));
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true, entries: 22 });
  });

  it("an entry that does not match its kind's schema is refused, and nothing is written", async () => {
    const bad = { kind: "note.added", actor: "ana", actorRole: "operator", reason: " ", before: null, after: { note: "x" } } as const;
    await expect(t.db.$transaction((tx) => appendAudit(tx, bad))).rejects.toThrow(/reason/);
    expect(await t.db.auditEntry.count()).toBe(22);
  });

  it("a change and its entry commit together: a failing change leaves no entry", async () => {
    await expect(t.db.$transaction(async (tx) => {
      await appendAudit(tx, note(999));
      throw new Error("the change failed");
    })).rejects.toThrow("the change failed");
    expect(await t.db.auditEntry.count()).toBe(22);
  });

  it("tampering with a stored entry (outside the code, by SQL) is detected at its seq", async () => {
    const victim = await t.db.auditEntry.findFirst({ where: { reason: "note 2" } });
    await t.db.$executeRawUnsafe(`UPDATE "AuditEntry" SET "reason" = 'edited' WHERE "seq" = ${victim!.seq}`);
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: false, brokenAt: { seq: victim!.seq } });
  });
});
