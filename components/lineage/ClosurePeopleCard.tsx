"use client";

import { useMemo } from "react";
import type { Closure } from "@/lib/contracts/lineage";
import type { ClosureSelection } from "@/lib/client/use-lineage";
import { useClosurePeople } from "@/lib/client/use-people";
import { nodeName } from "@/lib/domain/ids";
import { NodeOwners, RecipientList } from "./PeopleList";

/**
 * Who must know about the selection: the selected node's owners (and where each was found) and
 * readers, and everyone its closure reaches — the owners of what it reaches and the consumers
 * reading it — with how each is reached.
 */
export function ClosurePeopleCard({ selection, closure, painted }: { selection: ClosureSelection; closure: Closure | undefined; painted: boolean }) {
  const people = useClosurePeople(selection, painted);
  const names = useMemo(() => new Map(closure?.nodes.map((n) => [n.nodeId, n.name]) ?? []), [closure]);
  const nameOf = (id: string) => names.get(id) ?? nodeName(id);
  return (
    <section className="card" aria-labelledby="closure-people-title" data-testid="closure-people">
      <h2 id="closure-people-title">Who must know</h2>
      {people.isPending ? <div className="skeleton" aria-label="Finding the owners and consumers" /> : null}
      {people.isError ? (
        <p className="error-box" role="alert">
          The owners and consumers could not be found: {people.error.message}
        </p>
      ) : null}
      {people.data ? (
        <>
          <h3>{nameOf(people.data.node.nodeId)}</h3>
          <NodeOwners people={people.data.node} testId="selected-people" />
          <h3>{selection.direction === "downstream" ? "Everyone the closure reaches" : "Everyone its inputs belong to"}</h3>
          <RecipientList recipients={people.data.recipients} nameOf={nameOf} />
        </>
      ) : null}
    </section>
  );
}
