import { readFileSync } from 'node:fs';

/** Where the calling thread's time went, cumulative since the thread started (milliseconds). */
export interface ThreadCpuTime {
  /** Time this thread ran on a core (user and system). */
  readonly cpuMs: number;
  /** Time it was ready to run but waited for a core (the run queue: other threads and processes had them). */
  readonly runQueueMs: number;
}

let supported = true;

/**
 * The calling thread's own CPU time and run-queue wait, read from Linux's `/proc/thread-self/schedstat`
 * (nanoseconds, kept by the scheduler); `undefined` where that file cannot be read (not Linux). Unlike
 * `process.cpuUsage`, which adds up every thread of the process (libvips, libuv, the GC's helpers, other
 * workers), this is one worker thread's share: with the wall time of the same interval it splits a request
 * into running, waiting for a core, and blocked (waiting on another thread, such as sharp's decode).
 *
 * @example
 * const start = threadCpuTime();
 * await work();
 * const end = threadCpuTime();
 * if (start && end) console.log(`${(end.cpuMs - start.cpuMs).toFixed(1)} ms CPU on this thread`);
 */
export function threadCpuTime(): ThreadCpuTime | undefined {
  if (!supported) return undefined;
  let fields: string[];
  try {
    fields = readFileSync('/proc/thread-self/schedstat', 'latin1').trim().split(/\s+/);
  } catch {
    supported = false;
    return undefined;
  }
  const [running, waiting] = fields.map(Number);
  if (running === undefined || waiting === undefined || !Number.isFinite(running) || !Number.isFinite(waiting)) {
    supported = false;
    return undefined;
  }
  return { cpuMs: running / 1e6, runQueueMs: waiting / 1e6 };
}

/**
 * The time between two readings of `threadCpuTime`; `undefined` when either is.
 *
 * @example
 * const spent = threadCpuTimeSince(start, threadCpuTime()); // { cpuMs: 36.2, runQueueMs: 0.4 }
 */
export function threadCpuTimeSince(
  start: ThreadCpuTime | undefined,
  end: ThreadCpuTime | undefined,
): ThreadCpuTime | undefined {
  if (start === undefined || end === undefined) return undefined;
  return { cpuMs: end.cpuMs - start.cpuMs, runQueueMs: end.runQueueMs - start.runQueueMs };
}
