/**
 * Without WebMCP the audit still runs (it is cheap) and fills the Report, silently.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

test('without WebMCP the Report still carries the audit, and nothing is logged', async ({ page, demo }) => {
  const console: string[] = [];
  page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
  await page.goto(`${demo.url}/products/rolltop-backpack`);
  const report = await readyReport(page);
  expect(report.api).toBe('none');
  expect(report.audit).toContainEqual(expect.objectContaining({ level: 'warning', surface: 'form#back-in-stock' }));
  expect(console).toEqual([]);
});
