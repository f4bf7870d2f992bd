/**
 * A page that broke a built-in before the script tag, WebMCP on (test/e2e/broken-builtins.ts):
 * the runtime throws nothing into it; `ready` settles, with the tools where what is broken is not
 * needed, else with one `(runtime)` rejection naming the error, which the log shows once.
 */
import { expect, listTools, sharedTabTest as test } from './demo-fixture.ts';
import { BROKEN_BUILTINS, openBroken, settledReport } from './broken-builtins.ts';

test.describe('a page that broke a built-in before the script tag (WebMCP on)', () => {
  for (const broken of [BROKEN_BUILTINS.navigator, BROKEN_BUILTINS.customEvent]) {
    test(`${broken.name}: the tools register as on any page, and nothing is thrown`, async ({ page, demo }) => {
      const { errors } = await openBroken(page, `${demo.url}/contact/plain`, broken);
      const report = await settledReport(page);
      expect(report!.api).toBe('document.modelContext');
      expect(report!.registered).toContain('form.submit.capell-form-contact');
      expect((await listTools(page)).map(({ name }) => name)).toEqual(expect.arrayContaining(report!.registered));
      expect(errors).toEqual([]);
    });
  }

  for (const [broken, reason] of [
    // The registry chunk loads by one import(); its update reads the sources together with Promise.all.
    [BROKEN_BUILTINS.promiseAll, 'the update failed (no Promise.all)'],
    [BROKEN_BUILTINS.url, 'the runtime did not start (no URL)'],
    [BROKEN_BUILTINS.setTimeout, 'the update failed (no setTimeout)'],
  ] as const) {
    test(`${broken.name}: ready settles naming why nothing registered, and nothing is thrown`, async ({ page, demo }) => {
      const { errors, messages } = await openBroken(page, `${demo.url}/contact/plain`, broken);
      const report = await settledReport(page);
      expect(report!.registered).toEqual([]);
      expect(report!.rejected).toEqual([{ name: '(runtime)', source: 'capell-webmcp', reasons: [reason] }]);
      // What a failed update had registered is withdrawn, so the Report holds.
      expect(await listTools(page)).toEqual([]);
      expect(errors).toEqual([]);
      // Said once in the log where the start got far enough to read data-log (setTimeout: the update).
      if (broken === BROKEN_BUILTINS.setTimeout) expect(messages).toEqual([`[capell-webmcp] capell-webmcp: tool "(runtime)" not registered: ${reason}`]);
    });
  }

  test(`${BROKEN_BUILTINS.freeze.name}: the runtime stays out of the page (no global), and nothing is thrown`, async ({ page, demo }) => {
    const { errors } = await openBroken(page, `${demo.url}/contact/plain`, BROKEN_BUILTINS.freeze);
    await page.waitForTimeout(300);
    expect(await settledReport(page)).toBeUndefined();
    expect(await listTools(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
