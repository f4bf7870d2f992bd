/**
 * The panel's size does not follow the page's root font size (issue 37, item 7): a page's
 * `html { font-size: 1px }` squeezed the rem-sized panel to 40 px wide and Send still counted; at
 * `120px` its values sat outside its visible box. The panel is sized in px (and em of its own px
 * font), so for the demo's endpoint write (newsletter.subscribe, on the contact page) it is drawn
 * as on the page as served, every value inside its box, and the person's Send still sends.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { callResult, startCall } from './agent-calls.ts';

const EMAIL = 'ada.lovelace.analytical-engine@example.test';

for (const size of ['1px', '120px']) {
  test(`a page with html { font-size: ${size} }: the panel is drawn as on the page as served, every value inside its box, and the person's Send sends`, async ({ page, demo }) => {
    // The page as served: the panel's box there.
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    await startCall(page, 'newsletter.subscribe', { email: EMAIL });
    const { box: served } = await new PanelDriver(page).waitOpen();
    // The same page, its root font size set by a page script (as any stylesheet of the page could).
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    await page.evaluate((size) => document.documentElement.style.setProperty('font-size', size, 'important'), size);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe(size);
    const before = demo.subscriptions.length;
    await startCall(page, 'newsletter.subscribe', { email: EMAIL });
    const panel = new PanelDriver(page);
    await panel.waitText(EMAIL);
    const { box } = (await panel.state())!;
    expect(box).toEqual(served);
    const layout = (await panel.layout())!;
    expect(layout.overflowsSideways).toBe(false);
    expect(layout.items.length).toBeGreaterThan(0);
    for (const { label, value } of layout.items) {
      for (const part of [label, value]) {
        expect(part.x).toBeGreaterThanOrEqual(box.x);
        expect(part.x + part.width).toBeLessThanOrEqual(box.x + box.width);
        expect(part.y).toBeGreaterThanOrEqual(box.y);
        expect(part.y + part.height).toBeLessThanOrEqual(box.y + box.height);
      }
    }
    await panel.click('Send');
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'submitted', httpStatus: 200 });
    expect(demo.subscriptions.slice(before)).toEqual([EMAIL]);
  });
}
