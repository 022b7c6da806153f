import type { ScopeWithLayout } from "@/lib/contracts/repair";
import { elkThreads } from "../lineage/layout/elk-threads";
import { layoutScope } from "../lineage/layout/layout-scope";
import { getScope } from "./get-scope";

/** The Scope step's answer: the incident's scope and where each of its nodes sits on the scope graph. */
export async function getScopeView(id: string): Promise<ScopeWithLayout> {
  const scope = await getScope(id);
  return { ...scope, layout: await layoutScope(elkThreads()[0]!, scope) };
}
