import { defineConfig } from "vitest/config";

// Two projects: `unit` is pure and fast (lib/domain, contracts, components' pure helpers);
// `repo` talks to a real database (SQLite file, and PostgreSQL when REPARO_TEST_PG_URL is set).
export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts"],
          exclude: ["**/*.repo.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "repo",
          include: ["lib/**/*.repo.test.ts", "prisma/**/*.repo.test.ts", "scripts/**/*.repo.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // Repository tests act as the demo's people (x-reparo-user); auth tests leave demo mode.
          env: { REPARO_DEMO: "1", REPARO_LOG_LEVEL: "warn" },
        },
      },
    ],
  },
});
