/**
 * A page's CSS alone against the person: the contact form's send button disguised (its text
 * hidden while something else is drawn, so the person clicks what reads "Next page →"), and
 * honeypots a person cannot see that an agent would fill. A disguised button never sends, its
 * refusal names the check and reaches the agent's answer; a honeypot refuses the call, naming the
 * field and the check. The demo server counts every contact POST.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver } from './panel-driver.ts';
import { PROPOSAL, call, callResult, fieldValues, startCall } from './agent-calls.ts';

/** Adds a style sheet to the page (as a theme or injected CSS would) and wraps the send button's text in `<span class="t">`. */
async function disguise(page: Page, css: string): Promise<void> {
  await page.evaluate((css) => {
    const button = document.querySelector('#capell-form-contact button[type="submit"]')!;
    const span = document.createElement('span');
    span.className = 't';
    span.append(...button.childNodes);
    button.append(span);
    // A constructed sheet: the demo's CSP refuses inline <style>, as a site's theme would not be.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }, css);
}

test.beforeEach(async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
});

const SEND = '#capell-form-contact button[type="submit"]';

test.describe('a send button disguised by CSS never sends, and the refusal names why', () => {
  const disguises: [string, string, string][] = [
    ['its text at font-size 0 and ::after drawing "Next page →"', `${SEND} .t { font-size: 0 } ${SEND} .t::after { content: "Next page →"; font-size: 16px }`, 'generated content "Next page →" (::after on span.t)'],
    ['its text transparent by -webkit-text-fill-color', `${SEND} .t { -webkit-text-fill-color: transparent }`, 'its text “Send message” is hidden: its text is transparent (-webkit-text-fill-color rgba(0, 0, 0, 0)) on span.t'],
    ['its text pushed out by text-indent: -9999px', `${SEND} { text-indent: -9999px; overflow: hidden }`, 'its text “Send message” is hidden: it is drawn outside the button\'s box or clipped away (text-indent -9999px on span.t'],
    ['its text coloured like the button', `${SEND} .t { color: var(--accent) }`, 'its text “Send message” is hidden: its text rgb(47, 107, 79) has no contrast against rgb(47, 107, 79) behind it (1:1) on span.t'],
    ['its text clipped away by clip-path', `${SEND} .t { display: inline-block; clip-path: inset(50%) }`, 'its text “Send message” is hidden: it is drawn outside the button\'s box or clipped away'],
    ['its text at color: transparent with ::before drawing "Back"', `${SEND} .t { color: transparent } ${SEND}::before { content: "Back"; color: white }`, 'generated content "Back" (::before on the button)'],
  ];
  for (const [what, css, why] of disguises) {
    test(`after the panel opened, ${what}: the person's click on it is refused naming the check, the agent hears refused, nothing is sent`, async ({ page, demo }) => {
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      const panel = new PanelDriver(page);
      await panel.waitText('use the form’s own “Send message” button');
      await panel.scrollToEnd();
      await panel.waitArmed();
      const outcome = callResult(page);
      await disguise(page, css);
      const reason = `the “Send message” button does not read as what it is (${why}`;
      // A person's real click (trusted, at the button's middle), as the page now draws it.
      await page.locator(SEND).click();
      await panel.waitText(reason);
      expect(demo.formPosts).toEqual([]);
      await panel.click('Cancel');
      const answer = answerOf(await outcome) as { status: string; refused?: string };
      expect(answer.status).toBe('cancelled');
      expect(answer.refused).toContain(reason);
      expect(demo.formPosts).toEqual([]);
    });
  }

  const before: [string, string, () => void, string][] = [
    ['a child span at font-size 0 with ::after "Next page →"', `${SEND} .t { font-size: 0 } ${SEND} .t::after { content: "Next page →"; font-size: 16px }`, () => undefined, '“Send message”: generated content "Next page →" (::after on span.t)'],
    ['only an icon (an svg, no text)', '', () => { document.querySelector('#capell-form-contact button[type="submit"] .t')!.replaceWith(document.createElementNS('http://www.w3.org/2000/svg', 'svg')); }, '“”: it shows an image or icon with no text a person can read'],
    ['an aria-label that names another act', '', () => { document.querySelector('#capell-form-contact button[type="submit"]')!.setAttribute('aria-label', 'Next page'); }, '“Send message”: its accessible name “Next page” is not what it reads (“Send message”)'],
  ];
  for (const [what, css, change, why] of before) {
    test(`before the call, ${what}: the call is refused naming the check, nothing is filled, and the person's click sends nothing of the agent's`, async ({ page, demo }) => {
      await disguise(page, css);
      await page.evaluate(change);
      const result = await call(page, 'form.submit.capell-form-contact', PROPOSAL);
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toContain(`form #capell-form-contact has no submit button that a person can read as sending (${why}`);
      expect(await fieldValues(page)).toMatchObject({ name: '', email: '', message: '' });
      await page.locator(SEND).click();
      expect(await panelCount(page)).toBe(0);
      expect(demo.formPosts).toEqual([]);
    });
  }
});

function panelCount(page: Page): Promise<number> {
  return page.locator('capell-confirm-write').count();
}

test.describe('honeypots a person cannot see are refused, naming the field and the check', () => {
  // The declared name field (or its paragraph) hidden by each technique.
  const honeypots: [string, (css: string) => void, string, RegExp][] = [
    ['turned away (rotateY(180deg), backface-visibility: hidden)', (css) => { document.getElementById('capell-form-contact-name')!.style.cssText = css; }, 'transform: rotateY(180deg); backface-visibility: hidden', /\(turned away: matrix3d\(-1, .*\) with backface-visibility: hidden on the control\)/],
    ['filter: contrast(0) on its paragraph', (css) => { document.getElementById('capell-form-contact-name')!.closest('p')!.style.cssText = css; }, 'filter: contrast(0)', /\(its colours are flattened to one by filter contrast\(0\) on p \(0 of the range left\)\)/],
    ['filter: brightness(0) on the field', (css) => { document.getElementById('capell-form-contact-name')!.style.cssText = css; }, 'filter: brightness(0)', /\(its colours are flattened to one by filter brightness\(0\) on the control \(0 of the range left\)\)/],
    ['text-indent pushing its text out', (css) => { document.getElementById('capell-form-contact-name')!.style.cssText = css; }, 'text-indent: -9999px', /\(its text is pushed out of its box by text-indent -9999px\)/],
    ['an opaque sibling over it', (css) => {
      const p = document.getElementById('capell-form-contact-name')!.closest('p')!;
      p.style.position = 'relative';
      const cover = document.createElement('div');
      cover.className = 'cover';
      cover.style.cssText = css;
      p.append(cover);
    }, 'position: absolute; inset: 0; background: #fbfaf6', /\(covered by div\.cover at 9 of 9 points \(hit-testing\)\)/],
    ['a page popover over it that lets the pointer through', (css) => {
      const box = document.getElementById('capell-form-contact-name')!.getBoundingClientRect();
      const pop = document.createElement('div');
      pop.className = 'pop';
      pop.popover = 'manual';
      pop.style.cssText = `${css}; left: ${box.left - 4}px; top: ${box.top - 4}px; width: ${box.width + 8}px; height: ${box.height + 8}px`;
      document.body.append(pop);
      pop.showPopover();
    }, 'position: fixed; margin: 0; padding: 0; border: 0; pointer-events: none; background: #fbfaf6', /\(covered by div\.pop at 9 of 9 points \(hit-testing\)\)/],
    ['mix-blend-mode on its paragraph', (css) => { document.getElementById('capell-form-contact-name')!.closest('p')!.style.cssText = css; }, 'mix-blend-mode: screen', /\(blended by mix-blend-mode: screen on p, which the runtime cannot check\)/],
    ['text coloured like its background', (css) => { document.getElementById('capell-form-contact-name')!.style.cssText = css; }, 'color: #ffffff; background: #ffffff', /\(its text rgb\(255, 255, 255\) has no contrast against rgb\(255, 255, 255\) behind it \(1:1\)\)/],
  ];
  for (const [what, apply, css, why] of honeypots) {
    test(`a field hidden by ${what} is refused naming the field and the check; nothing is filled or sent`, async ({ page, demo }) => {
      await page.evaluate(apply, css);
      const result = await call(page, 'form.submit.capell-form-contact', PROPOSAL);
      expect(result.isError).toBe(true);
      const text = result.content[0]!.text;
      expect(text.startsWith('cannot fill form #capell-form-contact for form.submit.capell-form-contact: name: the control is not visible to the person (')).toBe(true);
      expect(text).toMatch(why);
      expect(await fieldValues(page)).toMatchObject({ name: '', email: '', message: '' });
      expect(await panelCount(page)).toBe(0);
      expect(demo.formPosts).toEqual([]);
    });
  }
});

/**
 * Wraps the send button's text in `<span class="t">` and gives that span a closed shadow root:
 * `draws` (when given) is drawn by the root beside the button's own text, which the root hides
 * (opacity 0), or over it (`over`); without `draws`, the root only slots the text in.
 */
async function closedLabel(page: Page, draws?: string, over = false): Promise<void> {
  await page.evaluate(({ draws, over }) => {
    const button = document.querySelector('#capell-form-contact button[type="submit"]') as HTMLElement;
    const span = document.createElement('span');
    span.className = 't';
    span.append(...button.childNodes);
    button.append(span);
    const root = span.attachShadow({ mode: 'closed' });
    const slot = document.createElement('span');
    slot.append(document.createElement('slot'));
    root.append(slot);
    if (draws === undefined) return;
    slot.style.opacity = '0';
    const drawn = document.createElement('span');
    drawn.textContent = draws;
    if (over) {
      span.style.position = 'relative';
      drawn.style.cssText = 'position: absolute; left: 0; top: 0; white-space: nowrap';
    }
    root.append(drawn);
  }, { draws, over });
}

test.describe('a send button whose closed shadow root draws another label never sends, and the refusal names why', () => {
  const why = 'span.t draws content from a closed shadow root, which the runtime cannot read';

  test('before the call, the root draws "Next page →" beside the hidden "Send message": the call is refused naming the check, nothing is filled', async ({ page, demo }) => {
    await closedLabel(page, 'Next page →');
    const result = await call(page, 'form.submit.capell-form-contact', PROPOSAL);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain(`form #capell-form-contact has no submit button that a person can read as sending (“Send message”: ${why})`);
    expect(await fieldValues(page)).toMatchObject({ name: '', email: '', message: '' });
    expect(await panelCount(page)).toBe(0);
    expect(demo.formPosts).toEqual([]);
  });

  for (const over of [false, true]) {
    test(`after the panel opened, the root draws "Next page →" ${over ? 'over' : 'beside'} the hidden "Send message": the person's click is refused naming the check, the agent hears refused, nothing is sent`, async ({ page, demo }) => {
      await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
      const panel = new PanelDriver(page);
      await panel.waitText('use the form’s own “Send message” button');
      await panel.scrollToEnd();
      await panel.waitArmed();
      const outcome = callResult(page);
      await closedLabel(page, 'Next page →', over);
      const reason = `the “Send message” button does not read as what it is (${why}), so it cannot send this proposal`;
      await page.locator(SEND).click();
      await panel.waitText(reason);
      expect(demo.formPosts).toEqual([]);
      await panel.click('Cancel');
      expect(answerOf(await outcome)).toMatchObject({ status: 'cancelled', refused: expect.stringContaining(reason) });
      expect(demo.formPosts).toEqual([]);
    });
  }

  test('a closed root that only slots the button\'s text in (a design system\'s label) draws nothing of its own: the person\'s click sends', async ({ page, demo }) => {
    await closedLabel(page);
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    const panel = new PanelDriver(page);
    await panel.waitText('use the form’s own “Send message” button');
    await panel.scrollToEnd();
    await panel.waitArmed();
    const outcome = callResult(page);
    await page.locator(SEND).click();
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
  });
});

test.describe('a cover that lets the pointer through, outside the top layer, over the send button', () => {
  test('a fixed cover reading "Next page →" with pointer-events: none: the person\'s click, which reaches the send button, is refused and nothing is sent', async ({ page, demo }) => {
    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    const panel = new PanelDriver(page);
    await panel.waitText('use the form’s own “Send message” button');
    await panel.scrollToEnd();
    await panel.waitArmed();
    const outcome = callResult(page);
    await page.evaluate(() => {
      const box = document.querySelector('#capell-form-contact button[type="submit"]')!.getBoundingClientRect();
      const cover = document.createElement('div');
      cover.textContent = 'Next page →';
      cover.style.cssText = `position: fixed; left: ${box.left}px; top: ${box.top}px; width: ${box.width}px; height: ${box.height}px; margin: 0; z-index: 10; display: grid; place-items: center; background: #2f6b4f; color: white; pointer-events: none`;
      document.body.append(cover);
    });
    await page.waitForTimeout(600);
    // Through the cover, as the person's click lands: on the send button.
    await page.locator(SEND).click({ force: true });
    await panel.waitText('the “Send message” button was covered, hidden or disguised');
    expect(demo.formPosts).toEqual([]);
    await panel.click('Cancel');
    expect(answerOf(await outcome)).toMatchObject({ status: 'cancelled', refused: expect.stringContaining('covered, hidden or disguised') });
  });
});
