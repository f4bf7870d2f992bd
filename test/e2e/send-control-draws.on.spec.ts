/**
 * Issue 37 item 1, "The send control reads otherwise": one named test per attempt class on the
 * demo's plain contact form (/contact/plain). While a proposal is open, a person's real click on
 * any submit control of the page (whatever it reads or draws: a second "Next page →" button, a
 * `<button form=…>` in a comment section, an svg over its text, its text in a zero-width span,
 * bidi-override, flex order, a web font), on the form's own Submit, or Enter in a field of the
 * form, sends nothing: no POST reaches the demo's contact action (`demo.formPosts`), the panel
 * says why (confirmReasonPageControl, confirmReasonPageEnter) and the proposal stays open; the
 * panel's own Send then sends exactly what the panel shows. The same file keeps the earlier CSS
 * disguises of the send button (now refused as page clicks too) and the honeypots a person cannot
 * see, which refuse the call before anything is filled. The person acts through Playwright's real
 * mouse and keyboard (trusted input); the panel is read through DevTools (panel-driver.ts).
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { panel } from './panel-driver.ts';
import { PROPOSAL, call, callResult, fieldValues, startCall } from './agent-calls.ts';

const FORM = '#capell-form-contact';
const SEND = `${FORM} button[type="submit"]`;

/** The panel's refusal line for a person's click on a button of the page (confirmRefused with confirmReasonPageControl). */
const PAGE_CONTROL_REFUSED = 'That did not count: a button of the page does not send this proposal, whatever it reads; only Send on this panel does. Nothing was sent; the proposal is still open.';
/** The same for Enter in a field of the form (confirmReasonPageEnter). */
const PAGE_ENTER_REFUSED = 'That did not count: Enter in the form does not send this proposal; only Send on this panel does. Nothing was sent; the proposal is still open.';

/**
 * Adds a page stylesheet the way the demo's CSP allows (a constructed sheet: no inline <style>),
 * as a site's theme or an injected rule would.
 */
async function pageCSS(page: Page, css: string): Promise<void> {
  await page.evaluate((css) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }, css);
}

/**
 * Opens the agent's contact proposal, has the person read it, then makes the person's real act on
 * the page (`act`: a click on a page control, or Enter): it must send nothing, the panel must show
 * `refusal` with the proposal still open, and the panel's own Send must then send exactly what
 * the panel shows (one POST, the proposal's values; the call answers submitted).
 */
async function refusedThenSentByPanel(page: Page, demo: Demo, act: () => Promise<void>, refusal = PAGE_CONTROL_REFUSED): Promise<void> {
  const driver = panel(page);
  await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
  await driver.waitOpen();
  await driver.scrollToEnd();
  await driver.waitArmed();
  const outcome = callResult(page);
  const before = demo.submissions.length;
  await act();
  await expect.poll(async () => (await driver.state())?.refusal ?? '').toBe(refusal);
  // The proposal is still open: its panel, its Send, the form still filled, the page not left.
  const open = (await driver.state())!;
  expect(open.buttons.map((button) => button.text)).toEqual(['Send', 'Cancel']);
  expect(page.url()).toBe(`${demo.url}/contact/plain`);
  expect(await fieldValues(page)).toMatchObject({ name: PROPOSAL.name, email: PROPOSAL.email, message: PROPOSAL.message });
  expect(demo.formPosts).toEqual([]);
  // What the panel shows is what the panel's Send sends.
  for (const shown of [PROPOSAL.name, PROPOSAL.email, PROPOSAL.message, PROPOSAL.topic]) expect(open.text).toContain(shown);
  await driver.scrollToEnd();
  await driver.waitArmed();
  await driver.click('Send');
  expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
  // Exactly one POST: the page control's click never sent one of its own.
  expect(demo.formPosts).toHaveLength(1);
  expect(demo.submissions).toHaveLength(before + 1);
  expect(demo.submissions.at(-1)).toMatchObject(PROPOSAL);
}

/** The person's real mouse click on `control` (Playwright checks that the click lands on it). */
function clickOn(control: Locator): () => Promise<void> {
  return () => control.click({ timeout: 5_000 });
}

test.beforeEach(async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
});

test.describe('issue 37 item 1: a page control sends nothing while a proposal is open, whatever it reads or draws', () => {
  test('the form\'s own Submit ("Send message"), plainly drawn: the person\'s click is refused, nothing is sent; the panel\'s Send sends what it shows', async ({ page, demo }) => {
    await refusedThenSentByPanel(page, demo, clickOn(page.locator(SEND)));
  });

  test('Enter in a field the panel lists: refused, nothing is sent; the panel\'s Send sends what it shows', async ({ page, demo }) => {
    await refusedThenSentByPanel(page, demo, async () => {
      await page.locator(`${FORM} [name="email"]`).focus();
      await page.keyboard.press('Enter');
    }, PAGE_ENTER_REFUSED);
  });

  test('a second <button>Next page →</button> in the form: the person\'s click is refused, nothing is sent', async ({ page, demo }) => {
    await page.evaluate((send) => {
      const next = document.createElement('button');
      next.id = 'next-page';
      next.textContent = 'Next page →';
      document.querySelector(send)!.after(next);
    }, SEND);
    await refusedThenSentByPanel(page, demo, clickOn(page.locator('#next-page')));
  });

  test('<button form="capell-form-contact">Load more comments</button> in a comment section elsewhere on the page: the person\'s click is refused, nothing is sent', async ({ page, demo }) => {
    await page.evaluate(() => {
      const comments = document.createElement('section');
      comments.innerHTML = '<h2>Comments</h2><p>Great boots, still going after ten years.</p>';
      const more = document.createElement('button');
      more.id = 'load-more';
      more.setAttribute('form', 'capell-form-contact');
      more.textContent = 'Load more comments';
      comments.append(more);
      // After the form in tree order: the form's own Submit stays the control the panel's Send stands for.
      document.getElementById('capell-form-contact')!.after(comments);
    });
    expect(await page.evaluate(() => (document.getElementById('load-more') as HTMLButtonElement).form?.id)).toBe('capell-form-contact');
    await refusedThenSentByPanel(page, demo, clickOn(page.locator('#load-more')));
  });

  test('an inline <svg> drawn over the button\'s text, reading "Next page →": the person\'s click is refused, nothing is sent', async ({ page, demo }) => {
    await page.evaluate((send) => {
      const button = document.querySelector(send) as HTMLButtonElement;
      const svgNS = 'http://www.w3.org/2000/svg';
      const svg = document.createElementNS(svgNS, 'svg');
      svg.setAttribute('viewBox', '0 0 160 40');
      const back = document.createElementNS(svgNS, 'rect');
      for (const [name, value] of Object.entries({ width: '160', height: '40', fill: '#2f6b4f' })) back.setAttribute(name, value);
      const text = document.createElementNS(svgNS, 'text');
      for (const [name, value] of Object.entries({ x: '80', y: '26', fill: 'white', 'text-anchor': 'middle', 'font-size': '16' })) text.setAttribute(name, value);
      text.textContent = 'Next page →';
      svg.append(back, text);
      button.style.position = 'relative';
      svg.style.cssText = 'position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none';
      button.append(svg);
    }, SEND);
    await refusedThenSentByPanel(page, demo, clickOn(page.locator(SEND)));
  });

  test('the button\'s text in a zero-width overflow:hidden span, "Next page →" drawn beside it: the person\'s click is refused, nothing is sent', async ({ page, demo }) => {
    await page.evaluate((send) => {
      const button = document.querySelector(send) as HTMLButtonElement;
      const hidden = document.createElement('span');
      hidden.append(...button.childNodes);
      hidden.style.cssText = 'display: inline-block; width: 0; overflow: hidden; white-space: nowrap; vertical-align: bottom';
      button.append(hidden, 'Next page →');
    }, SEND);
    // Drawn: only "Next page →" (the span has no width); read from the DOM it still begins "Send message".
    expect(await page.locator(SEND).evaluate((button) => (button.textContent ?? '').replace(/\s+/g, ' ').trim())).toBe('Send messageNext page →');
    await refusedThenSentByPanel(page, demo, clickOn(page.locator(SEND)));
  });

  test('unicode-bidi: bidi-override drawing "egap txeN" as "Next page": the person\'s click is refused, nothing is sent', async ({ page, demo }) => {
    await page.evaluate((send) => {
      const next = document.createElement('button');
      next.id = 'bidi';
      next.textContent = 'egap txeN';
      next.style.cssText = 'direction: rtl; unicode-bidi: bidi-override';
      document.querySelector(send)!.after(next);
    }, SEND);
    await refusedThenSentByPanel(page, demo, clickOn(page.locator('#bidi')));
  });

  test('flex order drawing "send, do not Cancel," as "Cancel, do not send": the person who clicks to cancel sends nothing', async ({ page, demo }) => {
    // The form's only send control, its words reordered: read in DOM order it says "send".
    await page.evaluate((send) => {
      const button = document.querySelector(send) as HTMLButtonElement;
      button.replaceChildren(...['send,', 'do not', 'Cancel,'].map((words, index) => {
        const span = document.createElement('span');
        span.textContent = words;
        span.style.order = String([2, 1, 0][index]);
        return span;
      }));
      button.style.cssText = 'display: inline-flex; gap: 0.3em';
    }, SEND);
    // Drawn left to right (by the boxes, not the DOM): "Cancel, do not send,".
    const drawn = await page.locator(`${SEND} span`).evaluateAll((spans) => spans
      .map((span) => ({ x: span.getBoundingClientRect().x, text: span.textContent }))
      .sort((a, b) => a.x - b.x).map(({ text }) => text).join(' '));
    expect(drawn).toBe('Cancel, do not send,');
    await refusedThenSentByPanel(page, demo, clickOn(page.locator(SEND)));
  });

  test('a same-origin web font whose glyphs draw "Submit" as "Cancel": the person who clicks to cancel sends nothing', async ({ page, demo }) => {
    // test/fixtures/fonts/submit-draws-cancel.ttf (SOURCES.md), served from the demo's own origin
    // (its CSP's default-src 'self' lets the page load it).
    const font = readFileSync(new URL('../fixtures/fonts/submit-draws-cancel.ttf', import.meta.url));
    await page.route(`${demo.url}/fonts/submit-draws-cancel.ttf`, (route) => route.fulfill({ status: 200, contentType: 'font/ttf', body: font }));
    await pageCSS(page, `@font-face { font-family: "Submit Draws Cancel"; src: url("/fonts/submit-draws-cancel.ttf") format("truetype"); } ${SEND} { font-family: "Submit Draws Cancel", "DejaVu Sans"; }`);
    await page.evaluate((send) => { (document.querySelector(send) as HTMLButtonElement).textContent = 'Submit'; }, SEND);
    expect(await page.evaluate(async () => (await document.fonts.load('16px "Submit Draws Cancel"', 'Submit')).length)).toBe(1);
    // Drawn, "Submit" in the page's font is "Cancel" in the font it was made from (same width), not "Submit".
    const widths = await page.evaluate(() => {
      const width = (family: string, text: string) => {
        const span = document.createElement('span');
        span.style.cssText = `font: 40px ${family}; position: absolute; white-space: nowrap`;
        span.textContent = text;
        document.body.append(span);
        const measured = span.getBoundingClientRect().width;
        span.remove();
        return measured;
      };
      return { drawn: width('"Submit Draws Cancel"', 'Submit'), cancel: width('"DejaVu Sans"', 'Cancel'), submit: width('"DejaVu Sans"', 'Submit') };
    });
    expect(widths.drawn).toBeCloseTo(widths.cancel, 0);
    expect(Math.abs(widths.drawn - widths.submit)).toBeGreaterThan(5);
    await refusedThenSentByPanel(page, demo, clickOn(page.locator(SEND)));
  });
});

test.describe('earlier disguises of the send button by CSS: the person\'s click on it is refused like any page control', () => {
  /** Wraps the send button's text in `<span class="t">` (the disguises style it). */
  async function wrapText(page: Page): Promise<void> {
    await page.evaluate((send) => {
      const button = document.querySelector(send)!;
      const span = document.createElement('span');
      span.className = 't';
      span.append(...button.childNodes);
      button.append(span);
    }, SEND);
  }

  const disguises: [string, string][] = [
    ['its text at font-size 0 and ::after drawing "Next page →"', `${SEND} .t { font-size: 0 } ${SEND} .t::after { content: "Next page →"; font-size: 16px }`],
    ['its text transparent by -webkit-text-fill-color', `${SEND} .t { -webkit-text-fill-color: transparent }`],
    ['its text coloured like the button', `${SEND} .t { color: var(--accent) }`],
    ['its text at color: transparent with ::before drawing "Back"', `${SEND} .t { color: transparent } ${SEND}::before { content: "Back"; color: white }`],
  ];
  for (const [what, css] of disguises) {
    test(`${what}: the person's click sends nothing; the panel's Send sends what it shows`, async ({ page, demo }) => {
      await wrapText(page);
      await pageCSS(page, css);
      await refusedThenSentByPanel(page, demo, clickOn(page.locator(SEND)));
    });
  }

  test('a closed shadow root on the button\'s text drawing "Next page →" over it: the person\'s click sends nothing', async ({ page, demo }) => {
    await closedLabel(page, 'Next page →', true);
    await refusedThenSentByPanel(page, demo, clickOn(page.locator(SEND)));
  });

  test('a fixed cover reading "Next page →" over the button, letting the pointer through (pointer-events: none): the person\'s click, which reaches the button, sends nothing', async ({ page, demo }) => {
    await page.evaluate((send) => {
      const box = document.querySelector(send)!.getBoundingClientRect();
      const cover = document.createElement('div');
      cover.textContent = 'Next page →';
      cover.style.cssText = `position: absolute; left: ${box.left + scrollX}px; top: ${box.top + scrollY}px; width: ${box.width}px; height: ${box.height}px; margin: 0; z-index: 10; display: grid; place-items: center; background: #2f6b4f; color: white; pointer-events: none`;
      document.body.append(cover);
    }, SEND);
    // Through the cover, as the person's click lands: on the send button.
    await refusedThenSentByPanel(page, demo, () => page.locator(SEND).click({ force: true, timeout: 5_000 }));
  });

  test('an aria-label that names another act ("Next page"): the person\'s click sends nothing', async ({ page, demo }) => {
    await page.evaluate((send) => document.querySelector(send)!.setAttribute('aria-label', 'Next page'), SEND);
    await refusedThenSentByPanel(page, demo, clickOn(page.locator(SEND)));
  });
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
