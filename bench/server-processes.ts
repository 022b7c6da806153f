import { execFileSync, type ChildProcess } from "node:child_process";

/**
 * The pids of a server a bench spawned in a process group of its own (npx, the next CLI and the
 * server it runs): what /proc is read for, for its memory and CPU time.
 */
export function serverPids(server: ChildProcess): number[] {
  return execFileSync("ps", ["-o", "pid=", "-g", String(server.pid)], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map(Number);
}
