import { defineConfig } from "vitest/config";

// Three projects: `unit` is pure and fast (lib/domain, contracts, components' pure helpers);
// `component` renders React components in happy-dom with Testing Library, the network answered by
// MSW from typed fixture builders; `repo` talks to a real database (SQLite file, and PostgreSQL
// when REPARO_TEST_PG_URL is set).
export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["**/*.repo.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "component",
          include: ["components/**/*.test.tsx"],
          environment: "happy-dom",
          environmentOptions: { happyDOM: { url: "http://localhost:3000/" } },
          setupFiles: ["test/components/setup.ts"],
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
          globalSetup: ["test/repo-global-setup.ts"],
          // Repository tests act as the demo's people (x-reparo-user); auth tests leave demo mode.
          env: { REPARO_DEMO: "1", REPARO_LOG_LEVEL: "warn" },
        },
      },
    ],
  },
});
