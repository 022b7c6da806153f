// Runs once when a console server process starts. The Node-only work (validate DATABASE_URL,
// apply pending migrations, exit non-zero on a bad URL) lives in lib/server/db/startup.ts so the
// edge bundle never sees it.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { prepareDatabaseOrExit } = await import("./lib/server/db/startup");
    await prepareDatabaseOrExit();
    // A repair left running by a console process that is gone is marked interrupted with its
    // exact progress (and its claims released) before this process serves anything.
    const { recoverAtStartup } = await import("./lib/server/repair/recover-at-startup");
    await recoverAtStartup();
  }
}
