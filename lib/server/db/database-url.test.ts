import { describe, expect, it } from "vitest";
import { DatabaseConfigError, redact, resolveDatabaseTarget } from "./database-url";

describe("resolveDatabaseTarget", () => {
  it("defaults to the embedded SQLite file, as an absolute path", () => {
    expect(resolveDatabaseTarget(undefined, "/srv/reparo")).toEqual({
      provider: "sqlite",
      file: "/srv/reparo/data/reparo.db",
      url: "file:/srv/reparo/data/reparo.db",
    });
    expect(resolveDatabaseTarget("  ", "/srv/reparo").provider).toBe("sqlite");
  });

  it("resolves a relative SQLite path from the working directory", () => {
    expect(resolveDatabaseTarget("file:./x/r.db", "/srv/reparo")).toMatchObject({ file: "/srv/reparo/x/r.db" });
    expect(resolveDatabaseTarget("file:/abs/r.db", "/srv")).toMatchObject({ file: "/abs/r.db" });
  });

  it("accepts postgres:// and postgresql:// with a database name", () => {
    expect(resolveDatabaseTarget("postgresql://u@127.0.0.1:5432/reparo")).toEqual({
      provider: "postgresql",
      url: "postgresql://u@127.0.0.1:5432/reparo",
      database: "reparo",
    });
    expect(resolveDatabaseTarget("postgres://u:p@db/prod").provider).toBe("postgresql");
  });

  it.each([
    ["mysql://root@localhost/x", 'DATABASE_URL: unsupported scheme "mysql"'],
    ["reparo.db", 'DATABASE_URL: unsupported scheme "reparo.db"'],
    ["postgresql://u@127.0.0.1:5432/", "names no database"],
    ["postgresql://u:secret@:5432/x", "is not a valid URL"],
    ["file:", "must name a SQLite file"],
    ["file:./r.db?mode=ro", "must name a SQLite file"],
  ])("refuses %s with one line naming DATABASE_URL", (url, message) => {
    let error: unknown;
    try {
      resolveDatabaseTarget(url, "/srv");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseConfigError);
    const text = (error as Error).message;
    expect(text).toContain(message);
    expect(text.startsWith("DATABASE_URL:")).toBe(true);
    expect(text).not.toContain("\n");
    expect(text).not.toContain("secret");
  });

  it("redacts passwords before printing", () => {
    expect(redact("postgresql://u:hunter2@db:5432/x")).toBe("postgresql://u:***@db:5432/x");
  });
});
