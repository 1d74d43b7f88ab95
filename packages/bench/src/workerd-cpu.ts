// CPU time of the workerd processes this bench started, read from /proc around each load. One
// workerd thread runs every isolate of a process (edge, origin, and Miniflare's D1 objects), so
// its CPU time per request is what a request costs the machine, and it moves far less than
// requests/s when something else on the machine takes the other core.
import { readdirSync, readFileSync } from "node:fs";

/** Linux reports utime and stime in USER_HZ ticks, 100 per second on every architecture. */
const TICKS_PER_SECOND = 100;

/** What one /proc/<pid>/stat line says of a process: its name, parent and CPU time. */
export interface ProcessStat {
  readonly name: string;
  readonly parentPid: number;
  readonly cpuMs: number;
}

/**
 * Parses /proc/<pid>/stat. The name is in parentheses and may itself hold spaces or ")", so
 * the fields are counted from the last ")": state, ppid, ..., utime (14th) and stime (15th).
 */
export function parseProcStat(line: string): ProcessStat | null {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const fields = line.slice(close + 2).split(" ");
  const parentPid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (![parentPid, utime, stime].every(Number.isFinite)) return null;
  return {
    name: line.slice(open + 1, close),
    parentPid,
    cpuMs: ((utime + stime) * 1000) / TICKS_PER_SECOND,
  };
}

/**
 * CPU milliseconds used so far by the workerd processes that are children of this process
 * (Miniflare starts them), summed; null where /proc cannot be read (not Linux).
 */
export function workerdCpuMs(): number | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) {
    let stat: ProcessStat | null;
    try {
      stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      continue; // gone meanwhile
    }
    if (stat?.name === "workerd" && stat.parentPid === process.pid) total += stat.cpuMs;
  }
  return total;
}
