import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";

/** What a caller of startTransaction gets back: the adapter's Transaction, as Prisma uses it. */
type Adapter = Awaited<ReturnType<PrismaBetterSqlite3["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];
type Statement = { run: () => unknown };
type Client = { prepare: (sql: string) => Statement; pragma: (source: string) => unknown };

/** How long one statement may block the calling thread waiting for another connection's lock. */
const STEP_MS = 20;

/** Where a connection stands with the write lock: what /api/ready reads. */
export interface WriteLockState {
  /** Since when a transaction has been waiting for the write lock (ms since the epoch), or null. */
  waitingSince: number | null;
  /** Since when transactions are refused: set when one gave up waiting, cleared when one begins. */
  refusedSince: number | null;
}

/**
 * SQLite transactions that take the write lock when they begin, and wait for it without holding
 * the thread.
 *
 * Why IMMEDIATE: the adapter opens one connection per process and starts every transaction with
 * a deferred `BEGIN`, so a query of another request that runs on that connection meanwhile turns
 * the transaction into a reader with a snapshot; when another process commits before the
 * transaction's first write, SQLite refuses the upgrade with SQLITE_BUSY_SNAPSHOT at once (the
 * busy timeout never applies). `BEGIN IMMEDIATE` waits for the lock instead, and then sees the
 * latest data.
 *
 * Why not the adapter's own startTransaction: it takes its mutex, then runs BEGIN; when BEGIN
 * throws (another process held the lock past the busy timeout) the mutex is never released, and
 * every later transaction of the process waits for it until Prisma gives up (P2028) — one outside
 * lock broke every write until a restart. And better-sqlite3 waits for a lock inside the
 * statement, on the calling thread: a 10-s busy timeout froze every page for 10 s.
 *
 * So each statement waits at most STEP_MS in SQLite, and the wait for the lock is a loop of
 * timers (the event loop serves other requests between tries) until `timeoutMs`, after which the
 * transaction is refused as busy, with everything it took released. Statements outside a
 * transaction are tried again the same way.
 */
export class SqliteWriteLock extends PrismaBetterSqlite3 {
  readonly state: WriteLockState = { waitingSince: null, refusedSince: null };
  private readonly timeoutMs: number;

  constructor(config: { url: string; timeoutMs: number }) {
    super({ url: config.url, timeout: STEP_MS });
    this.timeoutMs = config.timeoutMs;
  }

  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const client = (adapter as unknown as { client: Client }).client;
    const fail = (e: unknown): never => (adapter as unknown as { onError: (e: unknown) => never }).onError(e);
    const gate = new Gate();
    const queryRaw = adapter.queryRaw.bind(adapter);
    const executeRaw = adapter.executeRaw.bind(adapter);
    const retrying = <T>(run: () => Promise<T>) => untilFree(run, Date.now() + this.timeoutMs);

    adapter.queryRaw = (q: Query) => retrying(() => queryRaw(q));
    adapter.executeRaw = (q: Query) => retrying(() => executeRaw(q));
    adapter.startTransaction = async (isolationLevel) => {
      if (isolationLevel && isolationLevel !== "SERIALIZABLE")
        return fail(Object.assign(new Error(`isolation level ${isolationLevel}`), { code: "SQLITE_MISUSE" }));
      const deadline = Date.now() + this.timeoutMs;
      const release = await gate.acquire();
      try {
        await this.begin(client, deadline);
      } catch (e) {
        release();
        return fail(e);
      }
      let open = true;
      const end = async () => {
        if (open) release();
        open = false;
      };
      const tx: Transaction = {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        options: { usePhantomQuery: false },
        queryRaw,
        executeRaw,
        commit: end,
        rollback: end,
        createSavepoint: async (name: string) => void (await executeRaw(raw(`SAVEPOINT ${name}`))),
        rollbackToSavepoint: async (name: string) => void (await executeRaw(raw(`ROLLBACK TO ${name}`))),
        releaseSavepoint: async (name: string) => void (await executeRaw(raw(`RELEASE SAVEPOINT ${name}`))),
      };
      return tx;
    };
    return adapter;
  }

  /** BEGIN IMMEDIATE, tried between timers until the lock is free or the deadline has passed (once at least). */
  private async begin(client: Client, deadline: number): Promise<void> {
    const statement = client.prepare("BEGIN IMMEDIATE");
    try {
      await untilFree(
        async () => statement.run(),
        deadline,
        () => (this.state.waitingSince ??= Date.now()),
      );
      this.state.waitingSince = null;
      this.state.refusedSince = null;
    } catch (e) {
      this.state.waitingSince = null;
      if (isBusy(e)) this.state.refusedSince ??= Date.now();
      throw e;
    }
  }
}

const raw = (sql: string): Query => ({ sql, args: [], argTypes: [] }) as unknown as Query;

/** Runs `run` again after a short, growing pause while SQLite answers busy, until the deadline. */
async function untilFree<T>(run: () => Promise<T>, deadline: number, onBusy?: () => void): Promise<T> {
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await run();
    } catch (e) {
      if (!isBusy(e) || Date.now() + pause > deadline) throw e;
      onBusy?.();
      await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
    }
  }
}

/** SQLITE_BUSY from better-sqlite3, or as the adapter reports it ("SocketTimeout"). */
function isBusy(e: unknown): boolean {
  const err = e as { code?: unknown; cause?: { kind?: unknown; originalCode?: unknown } } | null;
  if (typeof err?.code === "string" && err.code.startsWith("SQLITE_BUSY")) return true;
  return err?.cause?.kind === "SocketTimeout";
}

/** One transaction at a time on the connection: a queue of waiters, each released exactly once. */
class Gate {
  private tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const turn = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return turn;
  }
}
