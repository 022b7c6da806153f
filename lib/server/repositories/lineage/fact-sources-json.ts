import { isFactSource, TASK_FACTS, type FactSourcesOf } from "@/lib/domain/fact-sources";

/** The stored {fact: source} map, keeping only known facts and sources. */
export function parseFactSources(json: string): FactSourcesOf {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return {};
  }
  if (!raw || typeof raw !== "object") return {};
  return Object.fromEntries(Object.entries(raw).filter(([k, v]) => (TASK_FACTS as readonly string[]).includes(k) && isFactSource(v))) as FactSourcesOf;
}
