/**
 * How busy the machine is, for `npm test` (scripts/test-all.js) to print at its start and end: a
 * suite that fails on a busy machine must say the machine was busy. Two measures:
 * - the load averages (`os.loadavg()`: runnable and waiting processes, over 1, 5 and 15 minutes)
 *   and the number of cores; at the end they include the suite's own work;
 * - the other work: the CPU time of every process that is not this one or one of its
 *   descendants (`/proc/<pid>/stat`, sampled each second), over the run's wall time, in cores.
 *   Linux only; elsewhere only the load averages are given.
 */
import { availableParallelism, loadavg } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Other work, on average over the run, from this share of the machine's cores (0.25: half a core
 * of two) up makes the summary say that results may be slowed by other work.
 */
export const BUSY_SHARE = 0.25;

/**
 * The load averages now, as one line, e.g. `load at the start: 1-min 0.42, 5-min 0.31, 15-min 0.20 on 2 cores`.
 * @param {string} when `at the start`, `at the end`
 */
export function loadLine(when) {
  const [one, five, fifteen] = loadavg();
  return `load ${when}: 1-min ${one.toFixed(2)}, 5-min ${five.toFixed(2)}, 15-min ${fifteen.toFixed(2)} on ${availableParallelism()} cores`;
}

/** How often the process table is read for the other work, in ms. */
const SAMPLE_MS = 1_000;

/**
 * Every process's parent and CPU time (user + system, in clock ticks), from /proc/<pid>/stat, or
 * undefined where /proc cannot be read. A process that ends while it is read is left out.
 * @returns {Map<number, { ppid: number, ticks: number }> | undefined}
 */
function processTable() {
  let names;
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const table = new Map();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command's closing parenthesis (it may hold spaces): state, ppid, …; utime and stime are the 14th and 15th fields.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // Ended meanwhile.
    }
  }
  return table;
}

/**
 * The pids of `table` that descend from `root` (itself included), by each process's parent.
 * @param {Map<number, { ppid: number }>} table
 * @param {number} root
 * @returns {Set<number>}
 */
export function descendants(table, root) {
  const ours = new Set([root]);
  const isOurs = (pid, depth = 0) => {
    if (ours.has(pid)) return true;
    const entry = table.get(pid);
    if (!entry || entry.ppid <= 1 || depth > 64) return false;
    if (!isOurs(entry.ppid, depth + 1)) return false;
    ours.add(pid);
    return true;
  };
  for (const pid of table.keys()) isOurs(pid);
  return ours;
}

/**
 * Follows the CPU time of the processes that are not this one or its descendants, sampling the
 * process table every SAMPLE_MS: a process's ticks count from when it is first seen (all of
 * them for one that started during the run), until it is last seen. Counting by ancestry, not
 * by the children's times a parent collects when it waits (`cutime`), which leaves out whatever
 * a child did not wait for (a browser's helper processes) and made a quiet machine look half busy.
 * @returns {(() => number) | undefined} the function that stops and returns the other work's
 *   ticks, or undefined where /proc cannot be read (Linux only)
 */
function followOtherWork() {
  const first = processTable();
  if (!first) return undefined;
  const seen = new Map([...first].map(([pid, { ticks }]) => [pid, ticks]));
  let other = 0;
  const sample = () => {
    const table = processTable();
    if (!table) return;
    const ours = descendants(table, process.pid);
    for (const [pid, { ticks }] of table) {
      const before = seen.get(pid) ?? 0;
      seen.set(pid, ticks);
      if (!ours.has(pid) && ticks > before) other += ticks - before;
    }
  };
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    sample();
    return other;
  };
}

/**
 * Starts measuring; call the function it returns at the end.
 * @returns {() => { line: string, busy: boolean }} the summary's load line, e.g. `load: 1-min 0.4
 *   on 2 cores at the start, 2.9 at the end (this suite's work included); other work used 0.1 of 2
 *   cores on average during the run`, ending `: results may be slowed by other work` when `busy`
 *   (other work at BUSY_SHARE of the cores or more; without /proc, a 1-min load at the start of
 *   BUSY_SHARE of the cores or more, before this suite ran).
 */
export function startLoadMeasure() {
  const cores = availableParallelism();
  const startLoad = loadavg()[0];
  const stopFollowing = followOtherWork();
  const started = performance.now();
  return () => {
    const endLoad = loadavg()[0];
    const otherTicks = stopFollowing?.();
    const seconds = (performance.now() - started) / 1000;
    let line = `load: 1-min ${startLoad.toFixed(1)} on ${cores} cores at the start, ${endLoad.toFixed(1)} at the end (this suite's work included)`;
    let busy = startLoad >= BUSY_SHARE * cores;
    if (otherTicks !== undefined && seconds > 0) {
      // USER_HZ, the tick of /proc/<pid>/stat, is 100 on every Linux build we run on.
      const other = otherTicks / 100 / seconds;
      line += `; other work used ${other.toFixed(1)} of ${cores} cores on average during the run`;
      busy = other >= BUSY_SHARE * cores;
    }
    return { line: busy ? `${line}: results may be slowed by other work` : line, busy };
  };
}
