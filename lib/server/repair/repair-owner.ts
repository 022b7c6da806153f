import crypto from "node:crypto";
import os from "node:os";
import { processSingleton } from "../runtime/process-singleton";

/**
 * Which console process runs a repair. A run left `running` whose owner is gone (its process
 * exited, or it stopped heartbeating) is interrupted, never silently left claiming its units.
 */
export interface RepairOwner {
  instance: string;
  host: string;
  pid: number;
  /** The `repair-run` job of the slice, when the job queue runs it. */
  job?: string;
}

const state = processSingleton("repairs", () => ({ instance: crypto.randomUUID(), live: new Set<string>() }));

export const HEARTBEAT_MS = 5_000;
/** A slice is presumed dead after this long without a heartbeat (three missed beats; at once when its pid on this host is gone). */
export const STALE_MS = 15_000;

export function thisOwner(): RepairOwner {
  return { instance: state.instance, host: os.hostname(), pid: process.pid };
}

export function markLive(runId: string, live: boolean): void {
  if (live) state.live.add(runId);
  else state.live.delete(runId);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function ownerAlive(runId: string, owner: RepairOwner | undefined, heartbeatAt: number | undefined, now: number): boolean {
  if (!owner) return false;
  if (owner.instance === state.instance) return state.live.has(runId);
  const fresh = heartbeatAt !== undefined && now - heartbeatAt < STALE_MS;
  if (owner.host === os.hostname()) return pidAlive(owner.pid) && fresh;
  return fresh;
}
