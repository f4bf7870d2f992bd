#!/usr/bin/env node
/**
 * `npm run test:busy`: `npm test` beside a busy neighbour, as on a shared CI machine or a laptop
 * doing other work: NEIGHBOURS CPU-bound Node processes, each spinning on one core at the
 * operating system's normal priority, run from before the suite starts until it ends, and are
 * then killed. The suite must pass like this too (no assertion may depend on the machine's
 * speed). Its output is one line naming the neighbours, then `npm test`'s; the exit status is
 * `npm test`'s (1 when it was killed by a signal).
 *
 *   npm run test:busy                 # npm test beside two spinning processes
 *   node scripts/test-busy.js <command> [args...]   # any other command beside them (e.g. one suite)
 */
import { spawn } from 'node:child_process';

/** How many CPU-bound processes run beside the suite: one per core of a 2-core machine. */
const NEIGHBOURS = 2;

/** A neighbour's whole program: spin until killed. */
const SPIN = 'for (;;) {}';

const [command = 'npm', ...args] = process.argv.length > 2 ? process.argv.slice(2) : ['npm', 'test'];

const neighbours = Array.from({ length: NEIGHBOURS }, () => spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }));
console.log(`test:busy: ${NEIGHBOURS} CPU-bound neighbours at normal priority (pids ${neighbours.map((child) => child.pid).join(', ')}) beside \`${[command, ...args].join(' ')}\``);

/** Kills the neighbours this script started, by their pids. */
function stopNeighbours() {
  for (const child of neighbours) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

const suite = spawn(command, args, { stdio: 'inherit' });
// An interrupted run (Ctrl-C) must not leave the neighbours spinning; the suite gets the signal too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    suite.kill(signal);
  });
}
suite.on('error', (error) => {
  console.error(`test:busy: ${command} did not start: ${error.message}`);
  stopNeighbours();
  process.exit(1);
});
// No line of ours after the suite's: its last line stays the summary `N passed, N failed`.
suite.on('close', (code) => {
  stopNeighbours();
  process.exit(code ?? 1);
});
