/**
 * The shared tab (demo-fixture.ts sharedTabTest, shared-tab.ts) is put back between tests as a
 * fresh tab would be: what one test leaves (routes, listeners, cookies, storage, viewport, other
 * pages, init scripts of the page and the context, a fake clock) is gone for the next. Serial: each second test reads what its
 * first left.
 */
import { expect, sharedTabTest as test } from './demo-fixture.ts';

test.describe.configure({ mode: 'serial' });

let listenersLeft = 0;

test('a test leaves a route, a listener, a cookie, local storage, IndexedDB, a viewport and a popup behind', async ({ page, demo }) => {
  listenersLeft = (page as unknown as { listeners(event: string): unknown[] }).listeners('console').length;
  await page.route(`${demo.url}/contact/plain`, (route) => route.fulfill({ contentType: 'text/html', body: '<p id="routed">routed</p>' }));
  page.on('console', () => undefined);
  await page.goto(`${demo.url}/contact/plain`);
  await expect(page.locator('#routed')).toHaveText('routed');
  await page.evaluate(async () => {
    localStorage.setItem('left', 'behind');
    await new Promise((resolve, reject) => {
      const request = indexedDB.open('left-behind');
      request.onsuccess = () => { request.result.close(); resolve(undefined); };
      request.onerror = () => reject(request.error);
    });
    window.open('/contact/plain');
  });
  await page.context().addCookies([{ name: 'left', value: 'behind', url: demo.url }]);
  await page.setViewportSize({ width: 500, height: 400 });
  await expect.poll(() => page.context().pages().length).toBe(2);
});

test('the next test finds none of it', async ({ page, demo }) => {
  expect(page.url()).toBe('about:blank');
  expect((page as unknown as { listeners(event: string): unknown[] }).listeners('console').length).toBe(listenersLeft);
  expect(page.context().pages()).toEqual([page]);
  expect(page.viewportSize()).toEqual({ width: 1280, height: 720 });
  expect(await page.context().cookies(demo.url)).toEqual([]);
  await page.goto(`${demo.url}/contact/plain`);
  await expect(page.locator('#routed')).toHaveCount(0);
  await expect(page.locator('form#capell-form-contact')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('left'))).toBeNull();
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((database) => database.name))).not.toContain('left-behind');
});

let tabWithInitScripts: unknown;

test('a test adds an init script to the page and one to its context', async ({ page, demo }) => {
  tabWithInitScripts = page;
  await page.addInitScript(() => { (window as unknown as { pageScript: boolean }).pageScript = true; });
  await page.context().addInitScript(() => { (window as unknown as { contextScript: boolean }).contextScript = true; });
  await page.goto(`${demo.url}/contact/plain`);
  expect(await page.evaluate(() => [(window as unknown as { pageScript?: boolean }).pageScript, (window as unknown as { contextScript?: boolean }).contextScript])).toEqual([true, true]);
});

test('the next test keeps the tab, without either init script', async ({ page, demo }) => {
  expect(page).toBe(tabWithInitScripts);
  await page.goto(`${demo.url}/contact/plain`);
  expect(await page.evaluate(() => [(window as unknown as { pageScript?: boolean }).pageScript, (window as unknown as { contextScript?: boolean }).contextScript])).toEqual([undefined, undefined]);
});

test('a test that installs a fake clock taints the tab', async ({ page, demo }) => {
  await page.clock.install({ time: new Date('2001-02-03T04:05:06Z') });
  await page.goto(`${demo.url}/contact/plain`);
  expect(await page.evaluate(() => new Date().getUTCFullYear())).toBe(2001);
});

test('the next test gets a new tab with the real clock', async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  expect(await page.evaluate(() => new Date().getUTCFullYear())).toBeGreaterThan(2001);
});
