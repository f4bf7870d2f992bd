/**
 * What the person sees is what is sent: page CSS cannot hide or disguise the panel, a click only
 * counts on a visible, unoccluded panel that has been still for INPUT_PROTECTION_MS, and the same
 * holds for keyboard activation. Clicks and keys are real input (Playwright through
 * @web/test-runner-commands), so they are trusted as a person's are.
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { clickMiddle, panelRoot, sleep } from './closed-root.ts';
import { expect } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import { INPUT_PROTECTION_MS, createPanelHandle, type ConfirmPanel, type ConfirmWriteItem } from '../../src/panel/capell-confirm-write.ts';
import { ClickGuard, readClickTargetProblem } from '../../src/panel/consent.ts';

const WORDS = { title: 'Check before sending', intro: 'Review it.', send: 'Send', cancel: 'Cancel', close: 'Close' };
/** Long enough for the protection to pass (and IntersectionObserver v2's first report). */
const SETTLE_MS = INPUT_PROTECTION_MS + 300;

/** Waits SETTLE_MS, then until the panel says its input protection has passed (at most 5 s). */
async function settle(root: ShadowRoot): Promise<void> {
  await sleep(SETTLE_MS);
  for (let tries = 0; tries < 50 && root.querySelector('section')?.dataset.armed !== 'true'; tries++) await sleep(100);
}

let panel: ConfirmPanel | undefined;
const cleanups: (() => void)[] = [];

afterEach(() => {
  panel?.close('withdrawn');
  panel = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Presents a request-mode panel and counts what it reports. */
async function presentRequest(items: ConfirmWriteItem[] = [{ label: 'Email', value: 'ada@example.test' }]) {
  const counts = { sent: 0, cancelled: 0 };
  const handlers = { onCancel: () => { counts.cancelled += 1; }, onSend: () => { counts.sent += 1; } };
  const handle = createPanelHandle(document);
  panel = handle;
  expect(await handle.present({ mode: 'request', words: WORDS, items, request: 'POST /newsletter' }, handlers)).to.equal(true);
  const root = panelRoot(handle.element);
  const send = () => root.querySelector<HTMLButtonElement>('button.send')!;
  return { panel: handle.element, handle, root, send, counts, handlers };
}

/** Adds a page stylesheet (removed after the test). */
function pageStyle(text: string): void {
  const style = document.createElement('style');
  style.textContent = text;
  document.head.append(style);
  cleanups.push(() => style.remove());
}

describe('confirm panel: page CSS cannot change what the person sees', () => {
  it('renders in a closed shadow root without parts', async () => {
    const { panel: host, root } = await presentRequest();
    expect(host.shadowRoot).to.equal(null);
    expect(root.querySelectorAll('[part]')).to.have.length(0);
    expect(host.parentElement).to.equal(document.body);
    expect(host.matches(':popover-open')).to.equal(true);
  });

  it('page CSS cannot hide the panel or its buttons (display/opacity/transform/visibility on the host, stylesheet and inline)', async () => {
    const hostile = 'display: none !important; opacity: 0 !important; transform: scale(0) !important; visibility: hidden !important; clip-path: inset(50%) !important; filter: opacity(0) !important; width: 0 !important; height: 0 !important; overflow: hidden !important; font-size: 0 !important; color: transparent !important; position: absolute !important; left: -9999px !important;';
    pageStyle(`capell-confirm-write { ${hostile} } capell-confirm-write[popover] { ${hostile} } :popover-open { ${hostile} }`);
    const { panel: host, root, send, counts } = await presentRequest();
    host.setAttribute('style', hostile);
    const style = getComputedStyle(host);
    expect([style.display, style.opacity, style.transform, style.visibility, style.clipPath, style.filter]).to.deep.equal(['block', '1', 'none', 'visible', 'none', 'none']);
    const section = root.querySelector('section')!;
    expect(section.checkVisibility({ opacityProperty: true, visibilityProperty: true })).to.equal(true);
    const box = section.getBoundingClientRect();
    expect(box.width).to.be.greaterThan(200);
    expect(box.left).to.be.greaterThanOrEqual(0);
    expect(getComputedStyle(root.querySelector('dd')!).fontSize).to.equal('16px');
    await settle(root);
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('::part pseudo-content cannot overlay the values', async () => {
    pageStyle(`
      capell-confirm-write::part(value)::after, capell-confirm-write::part(send)::after { content: 'mallory@example.test'; }
      capell-confirm-write::part(value) { font-size: 0; order: -1; }
      capell-confirm-write::after, capell-confirm-write::before { content: 'Cancel'; position: fixed; inset: 0; background: white; z-index: 2147483647; display: block; }
      capell-confirm-write::first-line { font-size: 0; color: transparent; }
    `);
    const { panel: host, root, send, counts } = await presentRequest();
    const value = root.querySelector('dd')!;
    expect(getComputedStyle(host, '::after').content).to.equal('none');
    expect(getComputedStyle(host, '::before').content).to.equal('none');
    expect(getComputedStyle(value).fontSize).to.equal('16px');
    expect(getComputedStyle(value, '::after').content).to.equal('none');
    const box = value.getBoundingClientRect();
    // The value's own text (drawn in its isolated run, a <bdi> inside the dd) is what is hit there.
    expect(value.contains(root.elementFromPoint(box.x + 2, box.y + box.height / 2))).to.equal(true);
    expect(value.textContent).to.equal('ada@example.test');
    await settle(root);
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('an accent colour that would make Send unreadable falls back to the default', async () => {
    document.documentElement.style.setProperty('--capell-confirm-accent', '#f4f4f4');
    cleanups.push(() => document.documentElement.style.removeProperty('--capell-confirm-accent'));
    const { send } = await presentRequest();
    expect(getComputedStyle(send()).backgroundColor).to.equal('rgb(31, 95, 139)');
    expect(getComputedStyle(send()).color).to.equal('rgb(255, 255, 255)');
  });
});

describe('confirm panel: a click counts only on what the person can see', () => {
  it('a click on a covered Send is refused', async () => {
    const { root, send, counts } = await presentRequest();
    // A page popover opened after the panel sits above it in the top layer; it lets clicks
    // through (pointer-events: none), so only the visibility check can tell.
    const cover = document.createElement('div');
    cover.setAttribute('popover', 'manual');
    cover.textContent = 'Cancel';
    document.body.append(cover);
    cleanups.push(() => cover.remove());
    const box = send().getBoundingClientRect();
    cover.style.cssText = `position: fixed; inset: auto; margin: 0; left: ${box.x - 4}px; top: ${box.y - 4}px; width: ${box.width + 8}px; height: ${box.height + 8}px; background: white; border: 0; padding: 0; pointer-events: none;`;
    cover.showPopover();
    await settle(root);
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    // The cover overlaps the panel's box as well as Send: the panel counts as covered.
    expect(root.querySelector('.refusal')?.textContent).to.equal('That did not count: this panel was hidden or covered. Nothing was sent; the proposal is still open.');
    cover.hidePopover();
    await settle(root);
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('a click within INPUT_PROTECTION_MS of opening is refused, one after it is accepted', async () => {
    const { root, send, counts } = await presentRequest();
    expect(send().getAttribute('aria-disabled')).to.equal('true');
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    expect(root.querySelector('.refusal')?.textContent).to.contain('only just appeared or changed');
    await settle(root);
    expect(send().getAttribute('aria-disabled')).to.equal('false');
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('keyboard activation of Send waits for the input protection too', async () => {
    const { root, send, counts } = await presentRequest();
    expect(root.activeElement).to.equal(root.querySelector('section'));
    await sendKeys({ press: 'Tab' });
    expect(root.activeElement).to.equal(send());
    await sendKeys({ press: 'Enter' });
    expect(counts.sent).to.equal(0);
    await settle(root);
    await sendKeys({ press: 'Enter' });
    expect(counts.sent).to.equal(1);
  });

  it('a changed proposal restarts the input protection', async () => {
    const { handle, root, send, counts, handlers } = await presentRequest();
    await settle(root);
    expect(send().getAttribute('aria-disabled')).to.equal('false');
    // The agent replaces its proposal just before the person's click lands.
    await handle.present({ mode: 'request', words: WORDS, items: [{ label: 'Email', value: 'mallory@example.test' }], request: 'POST /newsletter', notice: 'This replaces the assistant’s earlier proposal.' }, handlers);
    expect(send().getAttribute('aria-disabled')).to.equal('true');
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    await settle(root);
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('a panel that moves under the pointer restarts the input protection', async () => {
    const { root, send, counts } = await presentRequest();
    await settle(root);
    // Growing the panel (a longer list) moves Send: the click right after is refused.
    root.querySelector('dl')!.append(Object.assign(document.createElement('div'), { textContent: 'more' }));
    await sleep(50);
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    await settle(root);
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });
});

describe('confirm panel: form mode draws its own Send (issue 37)', () => {
  const FORM_WORDS = { ...WORDS, hint: 'To send it, press Send on this panel; the page’s own buttons do not send it while this panel is open.' };

  it('Send is the panel\'s, for forms too: a person\'s click after the input protection calls onSend once; a script\'s click, or one too soon, does not', async () => {
    const counts = { sent: 0 };
    const handle = createPanelHandle(document);
    panel = handle;
    expect(await handle.present({ mode: 'form', words: FORM_WORDS, formName: 'Contact', items: [{ label: 'Email', value: 'ada@example.test', names: ['email'] }] }, { onCancel: () => undefined, onSend: () => { counts.sent += 1; } })).to.equal(true);
    const root = panelRoot(handle.element);
    const send = root.querySelector<HTMLButtonElement>('button.send')!;
    expect(send.textContent).to.equal('Send');
    await clickMiddle(send);
    expect(counts.sent).to.equal(0);
    expect(root.querySelector('.refusal')?.textContent).to.contain('only just appeared or changed');
    await settle(root);
    send.click();
    send.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(counts.sent).to.equal(0);
    await clickMiddle(send);
    expect(counts.sent).to.equal(1);
  });

  it('lists each entry by its label and the name it is sent under, the value as sent when it reads otherwise, what changed, and what is no longer sent', async () => {
    const handle = createPanelHandle(document);
    panel = handle;
    const items: ConfirmWriteItem[] = [
      { label: 'Email', value: 'ada@example.test', names: ['email'] },
      { label: 'Topic', value: 'Sales', names: ['topic'], sent: 'sales', changed: true },
    ];
    expect(await handle.present({ mode: 'form', words: FORM_WORDS, items, removed: ['subject'] }, { onCancel: () => undefined })).to.equal(true);
    const root = panelRoot(handle.element);
    const terms = [...root.querySelectorAll('dl.items dt')].map((term) => [term.querySelector('.label')?.textContent, term.querySelector('code.name')?.textContent]);
    expect(terms).to.deep.equal([['Email', 'email'], ['Topic', 'topic']]);
    const details = [...root.querySelectorAll('dl.items dd')].map((detail) => (detail.textContent ?? '').replace(/\s+/g, ' ').trim());
    expect(details).to.deep.equal(['ada@example.test', 'Sales sent as sales changed after this panel first showed it']);
    expect(root.querySelector('dl.items dd .sent code')?.textContent).to.equal('sales');
    expect(root.querySelectorAll('strong.changed')).to.have.length(1);
    expect((root.querySelector('p.removed')?.textContent ?? '').replace(/\s+/g, ' ').trim()).to.equal('No longer sent: subject');
  });
});

describe('confirm panel: what the person consents to has all been on screen', () => {
  /** A proposal whose first value (60 lines) pushes the second out of the panel's box. */
  const LONG = [{ label: 'Message', value: Array.from({ length: 60 }, (_, index) => `line ${index + 1}`).join('\n') }, { label: 'Email', value: 'mallory@example.test' }];

  it('a body wider than the panel: Send stays aria-disabled and a click is refused until its right end was scrolled into view too', async () => {
    const { root, send, counts } = await presentRequest([{ label: 'Message', value: `pay ${'0'.repeat(200)} to mallory` }]);
    // A layout bent so a value does not wrap (the panel's own CSS always wraps it; a page that
    // reached the root before the runtime could do this): what is not drawn in view is not read.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('dd { white-space: pre !important; overflow-wrap: normal !important; }');
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    const body = root.querySelector<HTMLElement>('.body')!;
    await sleep(50);
    expect(body.scrollWidth).to.be.greaterThan(body.clientWidth * 2);
    body.scrollTop = body.scrollHeight;
    await sleep(SETTLE_MS + 500);
    expect(send().getAttribute('aria-disabled')).to.equal('true');
    expect(root.querySelector('.unread')?.textContent).to.contain('Scroll to the end of this panel');
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    body.scrollLeft = body.scrollWidth;
    await settle(root);
    expect(root.querySelector('.unread')).to.equal(null);
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('a body taller than the panel: Send stays aria-disabled and a click is refused until its end was scrolled into view', async () => {
    const { root, send, counts } = await presentRequest(LONG);
    const body = root.querySelector<HTMLElement>('.body')!;
    expect(body.scrollHeight).to.be.greaterThan(body.clientHeight * 2);
    await sleep(SETTLE_MS + 500);
    expect(send().getAttribute('aria-disabled')).to.equal('true');
    expect(root.querySelector('.unread')?.textContent).to.contain('Scroll to the end of this panel');
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    expect(root.querySelector('.refusal')?.textContent).to.contain('part of this panel was not yet read');
    // Halfway down is not the end.
    body.scrollTop = (body.scrollHeight - body.clientHeight) / 2;
    await sleep(100);
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    body.scrollTop = body.scrollHeight;
    await settle(root);
    expect(root.querySelector('.unread')).to.equal(null);
    expect(send().getAttribute('aria-disabled')).to.equal('false');
    // Read once is read: scrolling back up does not take it back.
    body.scrollTop = 0;
    await sleep(100);
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('with the keyboard: Tab reaches the body, End scrolls it to its end, then Send counts', async () => {
    const { root, send, counts } = await presentRequest(LONG);
    const body = root.querySelector<HTMLElement>('.body')!;
    await sendKeys({ press: 'Tab' });
    expect(root.activeElement).to.equal(body);
    await sendKeys({ press: 'End' });
    await settle(root);
    expect(body.scrollTop + body.clientHeight).to.be.greaterThanOrEqual(body.scrollHeight - 2);
    await sendKeys({ press: 'Tab' });
    expect(root.activeElement).to.equal(send());
    // A key press counts once the focus has rested on Send for the input protection.
    await settle(root);
    await sendKeys({ press: 'Enter' });
    expect(counts.sent).to.equal(1);
  });

  it('a key press on Send counts only once the focus has rested on it for the input protection (the page cannot move the focus there just before a key press the person aims at the page)', async () => {
    const { root, send, counts } = await presentRequest();
    await settle(root);
    expect(send().getAttribute('aria-disabled')).to.equal('false');
    await sendKeys({ press: 'Tab' });
    expect(root.activeElement).to.equal(send());
    await sendKeys({ press: ' ' });
    expect(counts.sent).to.equal(0);
    expect(root.querySelector('.refusal')?.textContent).to.contain('only just appeared or changed');
    await settle(root);
    await sendKeys({ press: ' ' });
    expect(counts.sent).to.equal(1);
  });

  it('a changed proposal is read again from its top', async () => {
    const { handle, root, send, counts, handlers } = await presentRequest(LONG);
    const body = root.querySelector<HTMLElement>('.body')!;
    body.scrollTop = body.scrollHeight;
    await settle(root);
    expect(send().getAttribute('aria-disabled')).to.equal('false');
    await handle.present({ mode: 'request', words: WORDS, items: [LONG[0]!, { label: 'Email', value: 'eve@example.test' }], request: 'POST /newsletter' }, handlers);
    expect(body.scrollTop).to.equal(0);
    await sleep(SETTLE_MS + 500);
    expect(send().getAttribute('aria-disabled')).to.equal('true');
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    expect(root.querySelector('.refusal')?.textContent).to.contain('not yet read');
  });

  it('a page zoom that makes the body fit for less than INPUT_PROTECTION_MS does not make it read; held for longer, the whole body was on screen and it counts', async () => {
    // A value a little longer than the first that overflows at zoom 1, so that it fits at the
    // smallest zoom the panel accepts (0.75: a third more room).
    const valueOf = (lines: number) => Array.from({ length: lines }, (_, index) => `line ${index + 1}`).join('\n');
    const { handle, root, send, counts, handlers } = await presentRequest([{ label: 'Message', value: valueOf(1) }]);
    const body = root.querySelector<HTMLElement>('.body')!;
    let lines = 1;
    while (body.scrollHeight <= body.clientHeight + 2 && lines < 100) {
      lines += 1;
      await handle.present({ mode: 'request', words: WORDS, items: [{ label: 'Message', value: valueOf(lines) }], request: 'POST /newsletter' }, handlers);
    }
    await handle.present({ mode: 'request', words: WORDS, items: [{ label: 'Message', value: valueOf(lines + Math.ceil(lines / 10)) }], request: 'POST /newsletter' }, handlers);
    expect(body.scrollHeight).to.be.greaterThan(body.clientHeight + 2);
    // One moment at zoom 0.75, then back, as a page script can.
    document.documentElement.style.setProperty('zoom', '0.75');
    await sleep(150);
    document.documentElement.style.removeProperty('zoom');
    await sleep(SETTLE_MS + 500);
    expect(send().getAttribute('aria-disabled')).to.equal('true');
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    expect(root.querySelector('.refusal')?.textContent).to.contain('not yet read');
    // Held: the whole body is on screen, at a zoom the panel accepts, while it is still.
    document.documentElement.style.setProperty('zoom', '0.75');
    cleanups.push(() => document.documentElement.style.removeProperty('zoom'));
    await sleep(100);
    expect(body.scrollHeight).to.be.at.most(body.clientHeight + 2);
    await settle(root);
    expect(send().getAttribute('aria-disabled')).to.equal('false');
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('a body that fits arms as before: no hint, no scrolling asked', async () => {
    const { root, send } = await presentRequest();
    await settle(root);
    expect(root.querySelector('.unread')).to.equal(null);
    expect(send().getAttribute('aria-disabled')).to.equal('false');
  });
});

describe('confirm panel: without IntersectionObserver v2', () => {
  const descriptor = Object.getOwnPropertyDescriptor(IntersectionObserverEntry.prototype, 'isVisible');

  beforeEach(() => {
    delete (IntersectionObserverEntry.prototype as { isVisible?: boolean }).isVisible;
  });
  afterEach(() => {
    if (descriptor) Object.defineProperty(IntersectionObserverEntry.prototype, 'isVisible', descriptor);
  });

  it('the fallback checks refuse a click on a Send covered by a page popover that lets clicks through', async () => {
    expect('isVisible' in IntersectionObserverEntry.prototype).to.equal(false);
    const { root, send, counts } = await presentRequest();
    const cover = document.createElement('div');
    cover.setAttribute('popover', 'manual');
    cover.textContent = 'Cancel';
    document.body.append(cover);
    cleanups.push(() => cover.remove());
    const box = send().getBoundingClientRect();
    cover.style.cssText = `position: fixed; inset: auto; margin: 0; left: ${box.x}px; top: ${box.y}px; width: ${box.width}px; height: ${box.height}px; background: white; border: 0; padding: 0; pointer-events: none;`;
    cover.showPopover();
    await settle(root);
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
    expect(root.querySelector('.refusal')?.textContent).to.contain('this panel was hidden or covered');
    cover.hidePopover();
    await settle(root);
    await clickMiddle(send());
    expect(counts.sent).to.equal(1);
  });

  it('the fallback checks: a control covered at the click point, or transparent, is refused', () => {
    const form = document.createElement('form');
    form.innerHTML = '<button type="submit">Send message</button>';
    document.body.append(form);
    cleanups.push(() => form.remove());
    const button = form.querySelector('button')!;
    const box = button.getBoundingClientRect();
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    expect(readClickTargetProblem(button, document, point)).to.equal(undefined);
    const overlay = document.createElement('div');
    overlay.style.cssText = `position: fixed; left: ${box.x}px; top: ${box.y}px; width: ${box.width}px; height: ${box.height}px; z-index: 10;`;
    document.body.append(overlay);
    cleanups.push(() => overlay.remove());
    expect(readClickTargetProblem(button, document, point)).to.equal('covered at the click point');
    overlay.remove();
    form.style.opacity = '0.5';
    expect(readClickTargetProblem(button, document, point)).to.equal('transparent');
  });
});

describe('confirm panel: page scripts cannot drive it', () => {
  it('a page that replaces performance.now after start, to run ahead, does not end the input protection early', () => {
    const guard = new ClickGuard(window, () => undefined);
    cleanups.push(() => guard.stop());
    const now = Object.getOwnPropertyDescriptor(Performance.prototype, 'now')!;
    let ahead = 0;
    Object.defineProperty(Performance.prototype, 'now', { ...now, value(this: Performance) { return (now.value as () => number).call(this) + (ahead += 1000); } });
    cleanups.push(() => Object.defineProperty(Performance.prototype, 'now', now));
    guard.restart();
    expect(performance.now() - performance.now()).to.be.below(-500);
    expect(guard.settled).to.equal(false);
  });

  it('a01 "A page script can fake the person\'s Send": the element and the class a page can reach have no method that shows a proposal or checks consent, and cannot be patched', async () => {
    const { panel: host, handlers } = await presentRequest();
    const Panel = customElements.get('capell-confirm-write')!;
    for (const name of ['present', 'consentRefusal', 'refuse', 'showOutcome', 'trackControls', 'close', 'proposal']) {
      expect(name in host, name).to.equal(false);
    }
    expect(Object.isFrozen(Panel.prototype)).to.equal(true);
    expect(Object.isFrozen(Object.getPrototypeOf(Panel.prototype))).to.equal(true);
    expect(() => Object.defineProperty(Panel.prototype, 'render', { value: () => 'forged' })).to.throw(TypeError);
    expect(() => Object.defineProperty(host, 'render', { value: () => 'forged' })).to.throw(TypeError);
    expect(() => Object.defineProperty(host, 'update', { value: () => undefined })).to.throw(TypeError);
    // The runtime's handlers are on nothing the page can walk to.
    const reachable = [host, Panel.prototype, Object.getPrototypeOf(Panel.prototype)].flatMap((object) => Reflect.ownKeys(object).map((key) => {
      try { return (object as Record<PropertyKey, unknown>)[key]; } catch { return undefined; }
    }));
    expect(reachable).to.not.include(handlers);
    expect(reachable).to.not.include(handlers.onSend);
  });

  it('a01: a render redirected away from the closed root leaves old values on screen, and a click on them does not count', async () => {
    const { panel: host, handle, root, send, counts, handlers } = await presentRequest();
    (host as unknown as { renderRoot: Element }).renderRoot = document.createElement('div');
    await handle.present({ mode: 'request', words: WORDS, items: [{ label: 'Email', value: 'mallory@example.test' }], request: 'POST /newsletter' }, handlers);
    expect(root.textContent).to.contain('ada@example.test');
    await sleep(SETTLE_MS + 300);
    await clickMiddle(send());
    expect(counts.sent).to.equal(0);
  });

  it('a05 "@font-face{font-family:ui-monospace}" redraws the request line: a page @font-face named like any of the panel\'s families changes nothing the panel draws', async () => {
    const { root } = await presentRequest([{ label: 'Email', value: 'ada@example.test' }, { label: 'Message', value: 'iiiiiiiiii WWWWWWWWWW' }]);
    const widths = () => [...root.querySelectorAll('code, dt, dd, button, h2, p:not(.status)')].map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return Math.round(range.getBoundingClientRect().width * 10) / 10;
    });
    // Probes in the page show the rules do take effect where a family is not generic.
    const probe = (family: string) => {
      const span = document.createElement('span');
      span.style.cssText = `font: 16px ${family}; position: absolute; white-space: nowrap;`;
      span.textContent = 'iiiiiiiiii WWWWWWWWWW';
      document.body.append(span);
      cleanups.push(() => span.remove());
      return () => span.getBoundingClientRect().width;
    };
    const uiMonospace = probe('ui-monospace, monospace');
    const before = { panel: widths(), uiMonospace: uiMonospace() };
    const families = ['ui-monospace', 'monospace', 'sans-serif', 'system-ui', 'serif', 'ui-sans-serif'];
    pageStyle(families.map((family) => `@font-face { font-family: ${family}; src: local("DejaVu Serif"), local("Liberation Serif"); }`).join('\n'));
    await Promise.all(families.map((family) => document.fonts.load(`16px ${family}`).catch(() => undefined)));
    await document.fonts.ready;
    await sleep(200);
    expect(uiMonospace(), 'the page rule applies to ui-monospace in the page').to.not.equal(before.uiMonospace);
    expect(widths()).to.deep.equal(before.panel);
  });

  it('a07 "when the panel throws in present, the form stays filled until expiry": present never throws or rejects; it resolves false', async () => {
    const handle = createPanelHandle(document);
    panel = handle;
    let outcome: Promise<boolean> | undefined;
    expect(() => { outcome = handle.present({ mode: 'request', words: WORDS, items: null as unknown as ConfirmWriteItem[] }, { onCancel: () => undefined }); }).to.not.throw();
    expect(await outcome).to.equal(false);
    // Nothing the person could press sends: no Send was drawn.
    expect(panelRoot(handle.element).querySelector('button.send')).to.equal(null);
  });
});
