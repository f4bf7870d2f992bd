/**
 * Without WebMCP there are no tools to wait for: the runtime leaves the page's `load` event alone
 * (nothing holds it, and no element is added to hold it), as it leaves everything else alone.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

test('without WebMCP the runtime adds no frame or media element to hold load, and load comes as it would without it', async ({ page, demo }) => {
  await page.addInitScript(() => {
    const added: string[] = [];
    (window as unknown as { framesAdded: string[] }).framesAdded = added;
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (/^(IFRAME|AUDIO|VIDEO)$/.test(node.nodeName)) added.push(node.nodeName);
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${demo.url}/contact`);
  const report = await readyReport(page);
  expect(report).toMatchObject({ api: 'none', registered: [] });
  expect(await page.evaluate(() => (window as unknown as { framesAdded: string[] }).framesAdded)).toEqual([]);
});
