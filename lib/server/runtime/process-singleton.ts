/**
 * What exists once per process: the database client, the thread pools, the job queue, the
 * caches, the logger and the metrics. They are kept here, on globalThis, because Next bundles
 * instrumentation (the boot warm-up) and each route separately: a module-level variable exists
 * once per bundle, and two bundles would each open a database, start threads and compute the
 * unit states again. Nothing else in lib/server touches globalThis.
 */
export type SingletonName =
  | "db"
  | "log"
  | "metrics"
  | "lifecycle"
  | "jobs"
  | "repairs"
  | "unitStates"
  | "lineageViews"
  | "compiledLineages"
  | "recentClosures"
  | "keptLineageAnswers"
  | "keptLayoutAnswers"
  | "lineageLayouts"
  | "laidPipelines"
  | "scopeLayouts"
  | "closureLayouts"
  | "elkThreads"
  | "ingestionThread"
  | "foldThread"
  | "foldPace"
  | "folders";

const store = globalThis as unknown as { __reparoProcess?: Map<SingletonName, unknown> };
const slots = (): Map<SingletonName, unknown> => (store.__reparoProcess ??= new Map());

/** The process's one `name`, created by `create` the first time any bundle asks for it. */
export function processSingleton<T>(name: SingletonName, create: () => T): T {
  const all = slots();
  if (!all.has(name)) all.set(name, create());
  return all.get(name) as T;
}

/** A process-wide slot that may be empty and replaced (a thread that stopped, a queue started later). */
export function processSlot<T>(name: SingletonName): { get(): T | undefined; set(value: T | undefined): void } {
  return {
    get: () => slots().get(name) as T | undefined,
    set: (value) => {
      if (value === undefined) slots().delete(name);
      else slots().set(name, value);
    },
  };
}
