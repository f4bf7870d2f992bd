/**
 * form.submit.capell-form-contact: a declared field the person cannot see is refused, for each way a page can
 * hide it.
 *
 * Mediated writes end to end with WebMCP on: the demo contact page, the built bundle, an agent
 * calling `form.submit.capell-form-contact` and `newsletter.subscribe` through document.modelContext, and a
 * person clicking (Playwright's real input). The server counts every contact POST, so "nothing
 * is sent before the person's click" is checked where it matters.
 *
 * One tab per worker serves every test (sharedTabTest, demo-fixture.ts): each test opens its page
 * itself, as on a fresh tab.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { call, fieldValues, PROPOSAL } from './agent-calls.ts';
import { panel } from './panel-driver.ts';

test.describe('form.submit.capell-form-contact: hidden fields are refused', () => {
  test.beforeEach(async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
  });

  // The declared name field's paragraph hidden by each technique (a honeypot the declaration names).
  const techniques: [string, string, RegExp][] = [
    ['off-screen (left: -9999px)', 'position: absolute; left: -9999px', /\(off-screen: outside the page's scrollable area \(at x -99\d\d(\.\d)?, y [\d.]+ px\)\)/],
    ['opacity 0', 'opacity: 0', /\(opacity 0 on p\)/],
    ['clip-path inset(50%)', 'clip-path: inset(50%)', /\(clipped away by clip-path inset\(50%\) on p\)/],
    ['a zero-height wrapper', 'height: 0; overflow: hidden; margin: 0; padding: 0', /\(clipped by p \(overflow hidden, [\d.]+×0 px\)\)/],
    ['transform scale(0)', 'transform: scale(0)', /\(scaled to zero by transform matrix\(0, 0, 0, 0, 0, 0\) on p\)/],
    ['visibility hidden', 'visibility: hidden', /\(visibility: hidden on p\)/],
    // a09: the styles the first check let through.
    ['filter: opacity(0)', 'filter: opacity(0)', /\(opacity 0 \(filter opacity\(0\)\) on p \(effective 0\)\)/],
    ['filter: blur(40px)', 'filter: blur(40px)', /\(blurred beyond reading by filter blur\(40px\) on p\)/],
    ['mask-image (not checkable)', 'mask-image: linear-gradient(transparent, transparent); -webkit-mask-image: linear-gradient(transparent, transparent)', /\(masked by mask-image linear-gradient\(rgba\(0, 0, 0, 0\), rgba\(0, 0, 0, 0\)\) on p, which the runtime cannot check\)/],
  ];
  for (const [what, css, why] of techniques) {
    test(`a field hidden by ${what} is refused, naming the field; nothing is filled or sent`, async ({ page, demo }) => {
      await page.evaluate((css) => { document.getElementById('capell-form-contact-name')!.closest('p')!.style.cssText = css; }, css);
      const result = await call(page, 'form.submit.capell-form-contact', PROPOSAL);
      expect(result.isError).toBe(true);
      const text = result.content[0]!.text;
      expect(text.startsWith('cannot fill form #capell-form-contact for form.submit.capell-form-contact: name: the control is not visible to the person (')).toBe(true);
      expect(text).toMatch(why);
      expect(text.endsWith('; an agent never writes what the person cannot check')).toBe(true);
      expect(await fieldValues(page)).toMatchObject({ name: '', email: '', message: '' });
      expect(await panel(page).count()).toBe(0);
      expect(demo.formPosts).toEqual([]);
    });
  }
});
