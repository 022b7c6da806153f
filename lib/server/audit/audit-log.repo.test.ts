import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { appendAudit } from "./append-audit";
import { verifyAuditChain } from "./verify-audit-chain";
import { GENESIS_HASH, hashAuditEntry } from "./hash-audit-entry";
import { currentAuditHead } from "./audit-head";
import { auditRowsAfter } from "../repositories/audit/audit-log";

describe.each(providersUnderTest())("audit log on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
  });
  afterAll(async () => t?.drop());

  const note = (i: number) => ({
    kind: "note.added" as const,
    actor: "ana",
    actorRole: "operator",
    reason: `note ${i}`,
    before: null,
    after: { note: `n${i}` },
  });

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
    await expect(
      t.db.$transaction(async (tx) => {
        await appendAudit(tx, note(999));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await t.db.auditEntry.count()).toBe(22);
  });

  it("the database itself refuses UPDATE and DELETE of an entry", async () => {
    await expect(t.db.$executeRawUnsafe(`UPDATE "AuditEntry" SET "reason" = 'edited'`)).rejects.toThrow(/append-only/);
    await expect(t.db.$executeRawUnsafe(`DELETE FROM "AuditEntry"`)).rejects.toThrow(/append-only/);
    expect(await t.db.auditEntry.count()).toBe(22);
  });

  it("a note holding a lone surrogate is stored as it was hashed: the chain still verifies", async () => {
    await t.db.$transaction((tx) =>
      appendAudit(tx, { kind: "note.added", actor: "ana", actorRole: "operator", reason: "\ud800 x", before: null, after: { note: "a \udc00 b" } }),
    );
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true, entries: 23 });
  });

  it("an exported signed head detects a chain re-hashed from entry 1, and a log cut short", async () => {
    process.env.REPARO_AUDIT_KEY = "k".repeat(40);
    try {
      const head = (await currentAuditHead(t.db))!;
      expect(head.signature).toMatch(/^[0-9a-f]{64}$/);
      expect((await verifyAuditChain(t.db, head)).against).toEqual({ seq: head.seq, ok: true, reason: null });
      // A forged head (another hash under the same signature) is refused.
      expect((await verifyAuditChain(t.db, { ...head, hash: "f".repeat(64) })).against?.reason).toMatch(/signature does not match/);
      // Whoever owns the table can drop the trigger and re-hash the whole chain: consistent in itself…
      await dropGuards(t);
      await rehashFrom(t, 1);
      const rewritten = await verifyAuditChain(t.db, head);
      expect(rewritten.brokenCount).toBe(0);
      // …but not what was exported.
      expect(rewritten).toMatchObject({ ok: false, against: { ok: false } });
      expect(rewritten.against?.reason).toMatch(/the chain was rewritten/);
      await t.db.$executeRawUnsafe(`DELETE FROM "AuditEntry" WHERE "seq" = ${head.seq}`);
      const cut = await verifyAuditChain(t.db, head);
      expect(cut.brokenCount).toBe(0);
      expect(cut.against?.reason).toMatch(/gone: the log was cut short/);
    } finally {
      delete process.env.REPARO_AUDIT_KEY;
    }
  });

  it("tampering with two stored entries (outside the code, by SQL) reports both, not only the first", async () => {
    await dropGuards(t);
    // (the previous test's forger re-hashed every entry, appending " (forged)" to each reason)
    const [a, b] = await t.db.auditEntry.findMany({
      where: { OR: [{ reason: { startsWith: "note 100" } }, { reason: { startsWith: "note 105" } }] },
      orderBy: { seq: "asc" },
    });
    await t.db.$executeRawUnsafe(`UPDATE "AuditEntry" SET "reason" = 'edited' WHERE "seq" IN (${a!.seq}, ${b!.seq})`);
    const r = await verifyAuditChain(t.db);
    expect(r).toMatchObject({ ok: false, brokenAt: { seq: a!.seq }, brokenCount: 2 });
    expect(r.broken.map((x) => x.seq)).toEqual([a!.seq, b!.seq]);
  });
});

/** What an attacker who owns the table does first. */
async function dropGuards(t: TestDatabase): Promise<void> {
  if (t.provider === "sqlite") {
    await t.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "AuditEntry_no_update"`);
    await t.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "AuditEntry_no_delete"`);
  } else {
    await t.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "AuditEntry_append_only" ON "AuditEntry"`);
  }
}

/** Recomputes every hash from `seq` on, as a careful forger would: the chain is consistent again. */
async function rehashFrom(t: TestDatabase, seq: number): Promise<void> {
  const rows = await auditRowsAfter(t.db, seq - 1, 10_000);
  let prev = rows[0]!.prevHash;
  for (const r of rows) {
    const { seq: s, ...rest } = r;
    const reason = `${rest.reason} (forged)`;
    const hash = hashAuditEntry({ ...rest, reason, prevHash: prev });
    await t.db.$executeRaw`UPDATE "AuditEntry" SET "reason" = ${reason}, "prevHash" = ${prev}, "hash" = ${hash} WHERE "seq" = ${s}`;
    prev = hash;
  }
  expect((await verifyAuditChain(t.db)).brokenCount).toBe(0);
}
