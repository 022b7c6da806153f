import path from "node:path";

/** Where Reparo keeps its data: the embedded SQLite file, or a shared PostgreSQL database. */
export type DatabaseTarget = { provider: "sqlite"; file: string; url: string } | { provider: "postgresql"; url: string; database: string };

export const DEFAULT_SQLITE_FILE = "data/reparo.db";

/** A configuration error an operator can fix; its message is one line naming the variable. */
export class DatabaseConfigError extends Error {
  override name = "DatabaseConfigError";
}

/**
 * Reads DATABASE_URL: unset → the embedded SQLite file ./data/reparo.db (absolute, because the
 * CLI, the server and standalone output resolve relative paths from different folders);
 * `file:…` → that SQLite file; `postgresql://…` / `postgres://…` → PostgreSQL.
 */
export function resolveDatabaseTarget(raw: string | undefined = process.env.DATABASE_URL, cwd = process.cwd()): DatabaseTarget {
  const value = raw?.trim();
  if (!value) {
    const file = path.resolve(cwd, DEFAULT_SQLITE_FILE);
    return { provider: "sqlite", file, url: `file:${file}` };
  }
  if (value.startsWith("file:")) {
    const rest = value.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (!rest || rest.includes("?"))
      throw new DatabaseConfigError(`DATABASE_URL: "${value}" must name a SQLite file, like file:./data/reparo.db (no query string)`);
    const file = path.resolve(cwd, rest);
    return { provider: "sqlite", file, url: `file:${file}` };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new DatabaseConfigError(`DATABASE_URL: "${redact(value)}" is not a valid URL`);
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
    if (!parsed.hostname) throw new DatabaseConfigError(`DATABASE_URL: "${redact(value)}" names no host`);
    if (!database) throw new DatabaseConfigError(`DATABASE_URL: "${redact(value)}" names no database (postgresql://user@host:5432/<database>)`);
    return { provider: "postgresql", url: value, database };
  }
  const scheme = value.includes(":") ? value.split(":")[0] : value;
  throw new DatabaseConfigError(`DATABASE_URL: unsupported scheme "${scheme}" — use file:<path> for SQLite or postgresql://… for PostgreSQL`);
}

/** Hides a password before a URL is printed. */
export function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@");
}
