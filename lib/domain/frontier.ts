/**
 * Seed 002: how far a source read as independently paginated partitions is complete.
 *
 * Each partition keeps a complete-through certificate — a coordinate the provider certifies
 * as fully enumerated *and* whose events all have a durable outcome — with an explicit
 * inclusive/exclusive upper bound, a checkpoint generation that fences stale retries, and the
 * membership epoch it belongs to. The combined frontier is the minimum of the certificates:
 * a fast partition can never carry it past a slow one. When a member has no certificate, the
 * coordinates are incomparable, endpoint semantics are unknown, or epochs differ, the answer
 * is the vector of certificates, never a scalar made up from tokens or event maxima.
 *
 * Example: A is complete through ≤ 120, B through ≤ 90 → the frontier is ≤ 90 (taking the
 * maximum, 120, would claim B's unproven interval). When B proves ≤ 110, it becomes ≤ 110.
 */

import { compareBounds, weakerBound, type Bound, type Certificate } from "./frontier-checkpoint";

export * from "./frontier-checkpoint";

export interface Membership {
  epoch: number;
  partitions: readonly string[];
  /** Members that joined without a proof of coverage from the published frontier. */
  unproven?: readonly string[];
}

export type ScalarFrontier = { kind: "scalar"; coordinate: number; inclusive: boolean; epoch: number; domain: string };
export type VectorFrontier = { kind: "vector"; certificates: readonly Certificate[]; reason: string; epoch: number };
export type MergedFrontier = ScalarFrontier | VectorFrontier;

/**
 * Seed 002: the minimum of the members' certificates with the weakest bound kept, or the vector.
 * Example: "< 100" with "≤ 100" → "< 100" (A's equality group at 100 is unproven).
 */
export function mergedFrontier(certs: readonly Certificate[], membership: Membership): MergedFrontier {
  const byPartition = currentCertificates(certs, membership);
  const members = membership.partitions.map((p) => byPartition.get(p)).filter((c): c is Certificate => c !== undefined);
  const reason = vectorReason(byPartition, membership);
  if (reason !== null) return { kind: "vector", certificates: members, reason, epoch: membership.epoch };
  let min: Bound | null = null;
  for (const c of members) {
    const bound = { coordinate: c.coordinate!, inclusive: c.inclusive! };
    min = min === null ? bound : weakerBound(min, bound);
  }
  return { kind: "scalar", coordinate: min!.coordinate, inclusive: min!.inclusive, epoch: membership.epoch, domain: members[0]!.domain };
}

/** One certificate per member: the highest generation, since a lower one was fenced off. */
function currentCertificates(certs: readonly Certificate[], membership: Membership): Map<string, Certificate> {
  const members = new Set(membership.partitions);
  const out = new Map<string, Certificate>();
  for (const c of certs) {
    if (!members.has(c.partition)) continue;
    const seen = out.get(c.partition);
    if (seen === undefined || c.generation > seen.generation) out.set(c.partition, c);
  }
  return out;
}

function vectorReason(byPartition: Map<string, Certificate>, membership: Membership): string | null {
  if (membership.partitions.length === 0) return "no member partitions: nothing certifies completeness";
  const problems: string[] = [];
  const domains = new Set<string>();
  for (const p of membership.partitions) {
    const c = byPartition.get(p);
    if (c === undefined) problems.push(`${p} has no certificate`);
    else if (c.epoch !== membership.epoch) problems.push(`${p} is certified in epoch ${c.epoch}, not ${membership.epoch}`);
    else if (c.coordinate === null) problems.push(`${p} has a resume token but no certified complete-through coordinate`);
    else if (c.inclusive === null) problems.push(`${p} does not say whether its endpoint is included`);
    if (c !== undefined) domains.add(c.domain);
  }
  for (const p of membership.unproven ?? []) problems.push(`${p} joined without a proof of coverage from the published frontier`);
  if (domains.size > 1) problems.push(`coordinates are incomparable (domains ${[...domains].sort().join(", ")})`);
  return problems.length === 0 ? null : problems.join("; ");
}

export interface PublishResult {
  published: ScalarFrontier | null;
  changed: boolean;
  reason: string;
}

/**
 * Seed 002 step 4: persist a candidate only if it is greater than the published frontier and
 * comes from the same or a newer membership epoch. A stale aggregator (older epoch, or a lower
 * minimum computed from checkpoints since superseded) rereads and recomputes; the published
 * frontier never goes back.
 */
export function publishFrontier(published: ScalarFrontier | null, candidate: MergedFrontier): PublishResult {
  const keep = (reason: string): PublishResult => ({ published, changed: false, reason });
  if (candidate.kind === "vector") return keep(`no scalar to publish: ${candidate.reason}`);
  if (published === null) return { published: candidate, changed: true, reason: "first published frontier" };
  if (candidate.epoch < published.epoch) return keep(`candidate from epoch ${candidate.epoch} is older than the published epoch ${published.epoch}`);
  if (candidate.domain !== published.domain) return keep(`candidate in ${candidate.domain} cannot be compared with ${published.domain}`);
  const order = compareBounds(candidate, published);
  if (order < 0) return keep("candidate is below the published frontier: it never decreases");
  if (order === 0 && candidate.epoch === published.epoch) return keep("unchanged");
  return { published: candidate, changed: true, reason: "advanced" };
}

export interface FrontierState {
  membership: Membership;
  certificates: readonly Certificate[];
  published: ScalarFrontier | null;
}

export interface MembershipChange {
  membership: Membership;
  certificates: readonly Certificate[];
  accepted: boolean;
  reason: string;
}

/**
 * A new partition joins under a new epoch. It counts towards a scalar only with a proof that it
 * is complete from the published frontier (its certificate reaches at least that far); without
 * one it is still a member — it could hold events before the frontier — but an unproven one,
 * so mergedFrontier answers with the vector. Silently leaving it out would turn an old
 * completeness claim into a gap.
 * Example: published "≤ 100"; C arrives certified "≤ 80" → member, unproven, vector.
 */
export function admitPartition(state: FrontierState, candidate: Certificate): MembershipChange {
  const { membership, published } = state;
  const epoch = membership.epoch + 1;
  const certificates = [...restamp(state.certificates, membership, epoch), { ...candidate, epoch }];
  const proven = published === null || coversPublished(candidate, published);
  const unproven = (membership.unproven ?? []).filter((p) => p !== candidate.partition);
  if (!proven) unproven.push(candidate.partition);
  const partitions = membership.partitions.includes(candidate.partition) ? membership.partitions : [...membership.partitions, candidate.partition];
  const reason = proven
    ? `${candidate.partition} proved coverage through the published frontier`
    : `${candidate.partition} has no proof of coverage from the published frontier: the frontier stays a vector until it does`;
  return { membership: { epoch, partitions, unproven }, certificates, accepted: proven, reason };
}

/**
 * A partition leaves only under a new epoch and only once it is sealed through the published
 * frontier (its certificate reaches it); otherwise its outstanding range would silently vanish.
 */
export function retirePartition(state: FrontierState, partition: string): MembershipChange {
  const { membership, published } = state;
  const cert = state.certificates.find((c) => c.partition === partition && c.epoch === membership.epoch);
  if (published !== null && (cert === undefined || !coversPublished(cert, published))) {
    return { membership, certificates: state.certificates, accepted: false, reason: `${partition} is not sealed through the published frontier` };
  }
  const epoch = membership.epoch + 1;
  const remaining = state.certificates.filter((c) => c.partition !== partition);
  return {
    membership: {
      epoch,
      partitions: membership.partitions.filter((p) => p !== partition),
      unproven: (membership.unproven ?? []).filter((p) => p !== partition),
    },
    certificates: restamp(remaining, membership, epoch),
    accepted: true,
    reason: `${partition} sealed and removed`,
  };
}

function coversPublished(cert: Certificate, published: ScalarFrontier): boolean {
  if (cert.coordinate === null || cert.inclusive === null || cert.domain !== published.domain) return false;
  return compareBounds({ coordinate: cert.coordinate, inclusive: cert.inclusive }, published) >= 0;
}

/** Existing members' certificates stay valid proofs for their own partitions in the new epoch. */
function restamp(certs: readonly Certificate[], membership: Membership, epoch: number): Certificate[] {
  return certs.filter((c) => c.epoch === membership.epoch).map((c) => ({ ...c, epoch }));
}
