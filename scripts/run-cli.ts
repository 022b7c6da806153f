import { DatabaseConfigError } from "@/lib/server/db/database-url";

/**
 * Runs a command-line entry point: configuration errors print one line naming the variable and
 * exit 2; anything else prints its message and exits 1.
 */
export function runCli(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      if (e instanceof DatabaseConfigError) {
        console.error(`reparo: ${e.message}`);
        process.exit(2);
      }
      console.error(`reparo: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exit(1);
    },
  );
}
