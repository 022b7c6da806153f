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
  {
    group: ["@/app/*", "@/components/*", "@/lib/server/*", "@/lib/client/*", "@/lib/contracts/*", "../server/*", "../client/*", "../contracts/*"],
    message: "lib/domain imports nothing of ours but itself.",
  },
];

// Prisma's query calls, as they read at a call site: `db.incident.findMany(…)`, `tx.run.update(…)`,
// `db.$queryRaw`…, `db.$transaction(…)`. Names only Prisma uses match on any `a.b.name(`; the
// common verbs (create, update, delete, count) only on a handle named like one (db, tx, prisma).
const prismaOnlyMethods =
  "findMany|findFirst|findFirstOrThrow|findUnique|findUniqueOrThrow|createMany|createManyAndReturn|updateMany|updateManyAndReturn|upsert|deleteMany|aggregate|groupBy";
const queryMessage = "Queries live in lib/server/repositories: call (or add) a repository function.";
const prismaQuerySelectors = [
  {
    selector: `CallExpression[callee.type='MemberExpression'][callee.object.type='MemberExpression'][callee.property.name=/^(${prismaOnlyMethods})$/]`,
    message: queryMessage,
  },
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.object.type='MemberExpression'][callee.object.object.name=/^(db|tx|prisma|client)$/][callee.property.name=/^(create|update|delete|count)$/]",
    message: queryMessage,
  },
  { selector: "MemberExpression[property.name=/^\\$(queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)$/]", message: queryMessage },
  {
    selector: "MemberExpression[property.name='$transaction']",
    message: "Open transactions with inTransaction(db, (tx) => …) from lib/server/repositories/database.",
  },
];

// CONVENTIONS rule 18: a key of several parts is compositeKey's (lib/domain/composite-key.ts), never
// parts joined by hand with a separator a producer's text may hold.
const handJoinedKey = {
  selector: "TemplateLiteral > TemplateElement[value.raw='|']",
  message: "Build a key of several parts with compositeKey (lib/domain/composite-key.ts), not joined with '|'.",
};

const clientImportBan = {
  group: ["@prisma/*", "**/generated/**", "**/db/client", "@/lib/server/db/client", "**/repositories/prisma-handle"],
  message: "Only lib/server/repositories import the Prisma client: take the Db/Tx handle from lib/server/repositories/database.",
};

// The process's threads and singletons live in lib/server/runtime (threads.ts, worker-rpc.ts,
// process-singleton.ts): four bridges had each grown their own id / pending-map / exit handling.
const workerBan = {
  group: ["worker_threads", "node:worker_threads"],
  message: "Threads live in lib/server/runtime: start one in threads.ts, talk to it with worker-rpc.ts.",
};

// A use case returns data, `(db, input, clock) → typed result` or a domain error; the HTTP answer
// (status, headers, body) is made in app/ and lib/server/http — where route() keeps the one status
// table. Ingestion's use cases once built their own Responses and shipped them across a thread.
const nextServerBan = {
  group: ["next/server", "next/server.js"],
  message: "next/server (and the Response it builds) belongs to lib/server/http and app/: return data or throw a domain error, and let the HTTP layer answer.",
};

const executorBan = {
  group: ["**/executor/*", "**/executor/**"],
  message: "lib/server/repair talks to lib/server/orchestrators (the port), never to the executor.",
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".next-*/**",
    "node_modules/**",
    "next-env.d.ts",
    "lib/server/db/generated/**",
    "test-results/**",
    "playwright-report/**",
    "data/**",
  ]),
  {
    files: ["lib/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: domainForbidden }],
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "lib/domain is pure: no I/O." },
        { name: "process", message: "lib/domain is pure: no environment." },
      ],
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "lib/domain takes time as an argument." },
        { object: "Math", property: "random", message: "lib/domain is deterministic." },
      ],
    },
  },
  {
    // Only repositories (and the db module) touch the database: everything else holds the
    // opaque handle (Db, Tx) from lib/server/repositories/database.ts, calls repository
    // functions, and opens transactions with inTransaction. Tests and test helpers may seed and
    // inspect the database directly.
    files: ["**/*.{ts,tsx,mts,mjs}"],
    ignores: ["lib/domain/**", "lib/server/repositories/**", "lib/server/db/**", "**/*.test.ts", "**/*.test.tsx", "**/testing/**", "bench/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [clientImportBan, workerBan] }],
      "no-restricted-syntax": ["error", ...prismaQuerySelectors, handJoinedKey],
    },
  },
  {
    // The same rule where the block above does not reach (its option list replaces this one there).
    files: ["lib/domain/**/*.ts", "lib/server/repositories/**/*.ts", "lib/server/db/**/*.ts"],
    ignores: ["**/*.test.ts", "**/testing/**"],
    rules: { "no-restricted-syntax": ["error", handJoinedKey] },
  },
  {
    // Flat config replaces a rule's options per file: each block below for lib/server outside its
    // HTTP edge carries the next/server ban beside its own (tests and test support included).
    files: ["lib/server/**/*.{ts,mjs}"],
    ignores: ["lib/server/http/**", "lib/server/db/generated/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [nextServerBan] }] },
  },
  {
    files: ["lib/server/**/*.{ts,mjs}"],
    ignores: ["lib/server/http/**", "lib/server/repositories/**", "lib/server/db/**", "lib/server/runtime/**", "**/*.test.ts", "**/testing/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [clientImportBan, workerBan, nextServerBan] }] },
  },
  {
    files: ["lib/server/repositories/**/*.ts", "lib/server/db/**/*.ts"],
    ignores: ["lib/server/db/generated/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [workerBan, nextServerBan] }] },
  },
  {
    // The runtime keeps the client ban (and the next/server one) only.
    files: ["lib/server/runtime/**/*.{ts,mjs}"],
    rules: { "no-restricted-imports": ["error", { patterns: [clientImportBan, nextServerBan] }] },
  },
  {
    files: ["lib/server/**/*.ts"],
    ignores: ["lib/server/runtime/**", "lib/server/db/generated/**"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "globalThis", message: "What exists once per process is a processSingleton (lib/server/runtime/process-singleton.ts)." },
      ],
    },
  },
  {
    // A repair talks only to the orchestrator port: the demo's executor is its `local` adapter.
    files: ["lib/server/repair/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [executorBan, nextServerBan] }],
    },
  },
  {
    // Flat config replaces a rule's options per file: the repair's own files keep the client ban too.
    files: ["lib/server/repair/**/*.ts"],
    ignores: ["**/*.test.ts", "**/testing/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [executorBan, clientImportBan, workerBan, nextServerBan] }],
    },
  },
]);
