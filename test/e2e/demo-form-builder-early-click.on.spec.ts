/**
 * A click the runtime refuses sends nothing, on both kinds of form of the demo: the person's
 * click on the panel's Send inside its input protection (INPUT_PROTECTION_MS after the panel
 * appears) on
 * form-builder's Livewire contact form (/contact: the stand-in's `wire:submit` listener, which
 * ignores `defaultPrevented`, must never see it) and on the plain form (/contact/plain). The
 * demo server's logs (`livewirePosts`, `formPosts`) show no post for it; the person's later click
 * on Send, once the panel is armed, is the first and only post (Send submits the form through its
 * Submit, so the stand-in's listener sends it). In the timed project (playwright.config.ts
 * TIMED_SPECS): the click must land inside a 500 ms window.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { callResult, startCall, PROPOSAL } from './agent-calls.ts';
import { panel } from './panel-driver.ts';

/** The panel's input protection (click-guard.ts INPUT_PROTECTION_MS), in ms. */
const INPUT_PROTECTION_MS = 500;

const KINDS = [
  { name: "form-builder's Livewire contact form", path: '/contact', posts: (demo: Demo) => demo.livewirePosts },
  { name: 'the plain contact form', path: '/contact/plain', posts: (demo: Demo) => demo.formPosts },
];

/**
 * Starts the contact write and clicks the panel's Send as soon as the panel element exists and
 * has drawn it (the mouse, without waiting for it to be enabled); tells whether the click landed
 * inside the input protection as the page's clock measured it.
 */
async function clickAsThePanelAppears(page: Page): Promise<boolean> {
  await page.evaluate(() => {
    const times: { attached?: number; clicked?: number } = {};
    (window as unknown as { earlyClick: typeof times }).earlyClick = times;
    new MutationObserver(() => { if (document.querySelector('capell-confirm-write')) times.attached ??= performance.now(); }).observe(document.body, { childList: true });
    document.addEventListener('click', () => { times.clicked ??= performance.now(); }, true);
  });
  await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
  await panel(page).waitAttached();
  await expect.poll(async () => (await panel(page).state())?.buttons.some((button) => button.text === 'Send') ?? false, { intervals: [10], timeout: 15_000 }).toBe(true);
  await panel(page).clickNow('Send');
  const { attached, clicked } = await page.evaluate(() => (window as unknown as { earlyClick: { attached?: number; clicked?: number } }).earlyClick);
  return attached !== undefined && clicked !== undefined && clicked - attached < INPUT_PROTECTION_MS;
}

for (const kind of KINDS) {
  test(`${kind.name}: a Send inside the panel's input protection sends nothing; the armed Send is the only post`, async ({ page, demo }) => {
    for (let attempt = 1; ; attempt++) {
      await page.goto(`${demo.url}${kind.path}`);
      await readyReport(page);
      kind.posts(demo).length = 0;
      if (await clickAsThePanelAppears(page)) break;
      expect(attempt, 'a click inside the input protection within three attempts').toBeLessThan(3);
      // A late click proves nothing; it was judged (refused, or sent) before the page goes.
      await expect.poll(async () => kind.posts(demo).length > 0 || ((await panel(page).state().catch(() => undefined))?.refusal ?? '') !== '').toBe(true);
    }
    await expect.poll(async () => (await panel(page).state())?.refusal ?? '').toContain('only just appeared or changed');
    await expect(page.locator('#capell-form-contact')).toHaveCount(1);
    expect(kind.posts(demo)).toEqual([]);
    const outcome = callResult(page);
    await panel(page).scrollToEnd();
    await panel(page).click('Send');
    expect(answerOf(await outcome)).toMatchObject({ status: 'submitted' });
    await expect.poll(() => kind.posts(demo).length).toBe(1);
    // Still one: had the refused click gone out, its post would be here too.
    expect(kind.posts(demo)).toHaveLength(1);
  });
}
