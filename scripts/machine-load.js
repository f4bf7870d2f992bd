/**
 * How busy the machine is, for `npm test` (scripts/test-all.js) to print at its start and end: a
 * suite that fails on a busy machine must say the machine was busy. Two measures:
 * - the load averages (`os.loadavg()`: runnable and waiting processes, over 1, 5 and 15 minutes)
 *   and the number of cores; at the end they include the suite's own work;
 * - the other work: the CPU time the whole machine spent (`/proc/stat`) less what this process
 *   and the children it waited for spent (`/proc/self/stat`), over the run's wall time, in cores.
 *   Linux only; elsewhere only the load averages are given.
 */
import { availableParallelism, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';

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

/**
 * The machine's busy CPU time and this process tree's (itself and the children it has waited
 * for), in clock ticks, or undefined where /proc cannot be read.
 */
function cpuTicks() {
  try {
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest is within user)
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // Fields after the command's closing parenthesis (the command may hold spaces): utime is the 14th field of the line.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    const [utime, stime, cutime, cstime] = fields.slice(11, 15);
    const values = [user, nice, system, irq, softirq, steal, utime, stime, cutime, cstime];
    if (values.some((value) => !Number.isFinite(value))) return undefined;
    return { machine: user + nice + system + irq + softirq + steal, own: utime + stime + cutime + cstime };
  } catch {
    return undefined;
  }
}

/**
 * Starts measuring; call the function it returns at the end, once every child has ended (a child
 * not yet waited for counts as other work).
 * @returns {() => { line: string, busy: boolean }} the summary's load line, e.g. `load: 1-min 0.4
 *   on 2 cores at the start, 2.9 at the end (this suite's work included); other work used 0.1 of 2
 *   cores on average during the run`, ending `: results may be slowed by other work` when `busy`
 *   (other work at BUSY_SHARE of the cores or more; without /proc, a 1-min load at the start of
 *   BUSY_SHARE of the cores or more, before this suite ran).
 */
export function startLoadMeasure() {
  const cores = availableParallelism();
  const startLoad = loadavg()[0];
  const startTicks = cpuTicks();
  const started = performance.now();
  return () => {
    const endLoad = loadavg()[0];
    const endTicks = cpuTicks();
    const seconds = (performance.now() - started) / 1000;
    let line = `load: 1-min ${startLoad.toFixed(1)} on ${cores} cores at the start, ${endLoad.toFixed(1)} at the end (this suite's work included)`;
    let busy = startLoad >= BUSY_SHARE * cores;
    if (startTicks && endTicks && seconds > 0) {
      // USER_HZ, the tick of /proc/stat and /proc/<pid>/stat, is 100 on every Linux build we run on.
      const other = Math.max(0, (endTicks.machine - startTicks.machine) - (endTicks.own - startTicks.own)) / 100 / seconds;
      line += `; other work used ${other.toFixed(1)} of ${cores} cores on average during the run`;
      busy = other >= BUSY_SHARE * cores;
    }
    return { line: busy ? `${line}: results may be slowed by other work` : line, busy };
  };
}
