import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// lib/domain is the pure core: the rules of the seeds. It must stay free of the UI, the
// framework, the database and I/O so it can be tested exhaustively and run anywhere.
const domainForbidden = [
  { group: ["react", "react-dom", "react/*", "react-dom/*"], message: "lib/domain is pure: no React." },
  { group: ["next", "next/*"], message: "lib/domain is pure: no Next.js." },
  { group: ["@prisma/*", "prisma", "**/generated/**"], message: "lib/domain is pure: no Prisma (map rows in lib/server repositories)." },
  { group: ["@xyflow/*", "reactflow", "elkjs", "elkjs/*"], message: "lib/domain is pure: no graph rendering or layout." },
  { group: ["fs", "fs/*", "node:*", "path", "http", "https", "net", "child_process", "pg", "better-sqlite3"], message: "lib/domain is pure: no I/O." },
  { group: ["@/app/*", "@/components/*", "@/lib/server/*", "@/lib/client/*", "@/lib/contracts/*", "../server/*", "../client/*", "../contracts/*"], message: "lib/domain imports nothing of ours but itself." },
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", "node_modules/**", "next-env.d.ts", "lib/server/db/generated/**", "test-results/**", "playwright-report/**", "data/**"]),
  {
    files: ["lib/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: domainForbidden }],
      "no-restricted-globals": ["error",
        { name: "fetch", message: "lib/domain is pure: no I/O." },
        { name: "process", message: "lib/domain is pure: no environment." }],
      "no-restricted-properties": ["error",
        { object: "Date", property: "now", message: "lib/domain takes time as an argument." },
        { object: "Math", property: "random", message: "lib/domain is deterministic." }],
    },
  },
  {
    // Only repositories (and the db module) may touch the Prisma client.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/client/**/*.ts", "lib/contracts/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [
        { group: ["@prisma/*", "**/generated/**", "@/lib/server/db/*"], message: "Only lib/server repositories import Prisma." },
      ] }],
    },
  },
  {
    // A repair talks only to the orchestrator port: the demo's executor is its `local` adapter.
    files: ["lib/server/repair/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [
        { group: ["**/executor/*", "**/executor/**"], message: "lib/server/repair talks to lib/server/orchestrators (the port), never to the executor." },
      ] }],
    },
  },
]);
