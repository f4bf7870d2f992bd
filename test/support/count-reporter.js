/**
 * A web-test-runner reporter that writes `{ passed, failed }` to `.test-results/<suite>.json`,
 * so `npm test` can sum every suite into one `N passed, N failed` line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';

function count(suite, totals) {
  for (const test of suite.tests ?? []) {
    if (test.skipped) continue;
    if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite.suites ?? []) count(child, totals);
}

/** @param {{ suite: string }} options */
export function countReporter({ suite }) {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0 };
      for (const session of sessions) {
        if (session.testResults) count(session.testResults, totals);
        // A file that failed to load or threw outside a test counts as one failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.failed += 1;
      }
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(`.test-results/${suite}.json`, JSON.stringify(totals));
    },
  };
}
