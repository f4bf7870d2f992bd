/**
 * Without WebMCP there are no tools to wait for: the runtime leaves the page's `load` event alone
 * (nothing holds it: no frame is added, no media element is given a source), as it leaves
 * everything else alone.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

test('without WebMCP the runtime holds nothing to delay load: no frame added, no media element given a source', async ({ page, demo }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { holdsSeen: string[] }).holdsSeen = seen;
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (/^(IFRAME|AUDIO|VIDEO)$/.test(node.nodeName)) seen.push(`${node.nodeName} added`);
    }).observe(document, { childList: true, subtree: true });
    // Wrapped before the runtime loads: a hold would set a source on a media element it never inserts.
    const descriptor = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'srcObject')!;
    Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', {
      ...descriptor,
      set(value: MediaStream | null) {
        seen.push(`${(this as HTMLMediaElement).nodeName} srcObject set`);
        descriptor.set!.call(this, value);
      },
    });
  });
  await page.goto(`${demo.url}/contact`);
  const report = await readyReport(page);
  expect(report).toMatchObject({ api: 'none', registered: [] });
  expect(await page.evaluate(() => (window as unknown as { holdsSeen: string[] }).holdsSeen)).toEqual([]);
});
