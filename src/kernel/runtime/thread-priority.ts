import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the CPU priority of the calling thread only (not the process), to `nice` (0-19): on Linux a thread is a
 * task of its own and `setpriority(PRIO_PROCESS, tid)` sets that task's nice value. Answers the thread's nice
 * value afterwards, or undefined where threads have no nice value of their own (not Linux) or it cannot be read.
 *
 * Why: the embedded database's thread (pglite-thread.worker.ts) is background work — a sweep's statements, a
 * taint's rows — beside the service's own thread, which answers requests. On a machine with fewer free cores than
 * runnable threads the kernel shares them by weight: at nice 10 the database's thread weighs ~1/9 of the service's
 * thread, so a question is answered first and the statements wait, instead of the two taking turns
 * (bench/ANALYSIS.md). With a core to spare the nice value changes nothing.
 */
export function lowerThisThreadPriority(nice: number): number | undefined {
  const tid = threadId();
  if (tid === undefined) return undefined;
  // Only ever lowered: a higher priority than the process's would need privileges (and is not asked for).
  const now = niceOf(tid);
  try {
    if (now !== undefined && nice > now) setPriority(tid, nice);
  } catch {
    // A sandbox may refuse setpriority altogether: a scheduling hint never stops the database from opening.
  }
  return niceOf(tid);
}

/** The kernel's id of the calling thread: /proc/thread-self links to `<pid>/task/<tid>`. */
function threadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Field 19 of /proc/<tid>/stat (after the command in parentheses, which may itself hold spaces). */
export function niceOf(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): field 19 is fields[16].
    const nice = Number(fields[16]);
    return Number.isInteger(nice) ? nice : undefined;
  } catch {
    return undefined;
  }
}
