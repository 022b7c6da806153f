// Runs once when a console server process starts. The Node-only work (validate DATABASE_URL,
// apply pending migrations, exit non-zero on a bad URL) lives in lib/server/db/startup.ts so the
// edge bundle never sees it.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { prepareDatabaseOrExit } = await import("./lib/server/db/startup");
    await prepareDatabaseOrExit();
    // This instance becomes a worker of the background queues (pg-boss on PostgreSQL, in-process
    // on SQLite): repair slices — including repairs a stopped console left, taken over from their
    // exact progress — alert delivery, unit-state upkeep and retention; SIGTERM stops it gracefully.
    const { startServerWork } = await import("./lib/server/jobs/server-lifecycle");
    await startServerWork();
  }
}
