import Link from "next/link";
import type { CompletenessReason } from "@/lib/contracts/completeness";

/** The unit, and the open incident handling it when there is one. */
export function ReasonLinks({ reason }: { reason: CompletenessReason }) {
  return (
    <span className="nowrap">
      <Link href={reason.unitHref} prefetch={false}>
        unit →
      </Link>
      {reason.incidents.map((i) => (
        <span key={i.id}>
          {" "}
          ·{" "}
          <Link href={i.href} title={i.title} prefetch={false}>
            incident ({i.status}) →
          </Link>
        </span>
      ))}
    </span>
  );
}
