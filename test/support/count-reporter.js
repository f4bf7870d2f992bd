/**
 * A web-test-runner reporter that writes `{ passed, failed, failures }` to
 * `.test-results/<suite>.json`, so `npm test` can sum every suite into one `N passed, N failed`
 * line and name each failure next to it (`failures`: "file › describe › test: first line of the
 * error", at most 300 characters each).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const firstLine = (error) => String(error?.message ?? error ?? '').split('\n')[0].slice(0, 300);

function count(suite, path, totals) {
  for (const test of suite.tests ?? []) {
    if (test.skipped) continue;
    if (test.passed) totals.passed += 1;
    else {
      totals.failed += 1;
      totals.failures.push(`${[...path, test.name].join(' › ')}: ${firstLine(test.error)}`);
    }
  }
  for (const child of suite.suites ?? []) count(child, [...path, child.name], totals);
}

/** @param {{ suite: string }} options */
export function countReporter({ suite }) {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, failures: [] };
      for (const session of sessions) {
        const file = relative(process.cwd(), session.testFile);
        if (session.testResults) count(session.testResults, [file], totals);
        // A file that failed to load or threw outside a test counts as one failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) {
          totals.failed += 1;
          totals.failures.push(`${file}: ${session.errors.map(firstLine).join(' / ')}`);
        }
      }
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(`.test-results/${suite}.json`, JSON.stringify(totals));
    },
  };
}
