/**
 * Pages that replace built-ins after the runtime loaded (src/start/primitives.ts takes them when its
 * entry script runs): each test is a page script, run once `ready` has settled, that swaps a
 * built-in the runtime's promises rest on for one that lies, and shows the promise still holds
 * against the real demo server: reads are answered by the site, the person's send reaches the
 * site with what the panel showed, a covered Send is still refused, and a click on the page's own
 * submit button (disguised or not) still sends nothing while the proposal is open (issue 37: only
 * the panel's own Send sends). The demo server counts every contact POST and sign-up.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { answerOf } from '../support/answer-of.ts';
import { PanelDriver, panel } from './panel-driver.ts';
import { armedContactProposal, PAGE_CONTROL_REASON as PAGE_CONTROL } from './page-acts.ts';
import { PROPOSAL, call, callResult, startCall } from './agent-calls.ts';

const SEND = '#capell-form-contact button[type="submit"]';

/**
 * Each group's beforeEach but the timeout group's (its test opens the page itself, with a shorter
 * timeout): the contact page, ready, and the worker's counts of contact POSTs and sign-ups cleared.
 */
async function openContact({ page, demo }: { page: Page; demo: Demo }): Promise<void> {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
  demo.signups.length = 0;
}

/** CSS alone disguises the send button: its text made transparent, "Next page →" drawn by ::after. */
function drawNextPageOverSend(page: Page): Promise<void> {
  return page.evaluate(() => {
    const button = document.querySelector('#capell-form-contact button[type="submit"]')!;
    const span = document.createElement('span');
    span.className = 't';
    span.append(...button.childNodes);
    button.append(span);
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('#capell-form-contact button[type="submit"] .t { color: transparent } #capell-form-contact button[type="submit"] .t::after { content: "Next page →"; color: white }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  });
}

test.describe('what is sent, and where: fetch and Request replaced after the runtime loaded', () => {
  test.beforeEach(openContact);

  test('a read is answered by the site, not by the page\'s fetch', async ({ page, demo }) => {
    await page.evaluate(() => {
      const answered: string[] = [];
      Object.assign(window, { answeredByPage: answered });
      window.fetch = (async (input: RequestInfo | URL) => {
        answered.push(String(input instanceof Request ? input.url : input));
        return new Response(JSON.stringify({ capellAgentSchema: 1, data: [{ title: 'the page answered' }], links: { next: null, previous: null } }), { headers: { 'content-type': 'application/json' } });
      }) as typeof fetch;
    });
    const result = await call(page, 'site.navigation', {});
    expect(result.isError).toBeFalsy();
    expect(answerOf(result)).toEqual(await demo.api('/agent/v1/navigation'));
    expect(await page.evaluate(() => (window as unknown as { answeredByPage: string[] }).answeredByPage)).toEqual([]);
  });

  test('the person\'s send goes to the form\'s action with what the panel showed, and the agent reads the site\'s status', async ({ page, demo }) => {
    await armedContactProposal(page);
    const outcome = callResult(page);
    // Told to the test as it happens: after the send the page follows the site's redirect, so
    // reading a page variable afterwards races with that navigation.
    const answeredByPage: string[] = [];
    await page.exposeFunction('reportPageFetch', (url: string) => { answeredByPage.push(url); });
    await page.evaluate(() => {
      // A fetch that answers 200 itself, and a Request that sends elsewhere.
      window.fetch = (async (input: RequestInfo | URL) => {
        void (window as unknown as { reportPageFetch(url: string): Promise<void> }).reportPageFetch(String(input instanceof Request ? input.url : input));
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      }) as typeof fetch;
      const SiteRequest = Request;
      window.Request = class extends SiteRequest {
        constructor(_input: RequestInfo | URL, init?: RequestInit) {
          super('/signups?list=page', init);
        }
      } as typeof Request;
      URL.prototype.toString = () => `${location.origin}/signups?list=page`;
    });
    await panel(page).click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toEqual([expect.objectContaining({ path: '/contact/plain' })]);
    expect(demo.submissions.at(-1)).toMatchObject({ name: PROPOSAL.name, email: PROPOSAL.email, message: PROPOSAL.message });
    expect(demo.signups).toEqual([]);
    expect(answeredByPage).toEqual([]);
  });
});

test.describe('no call waits past its timeout: AbortSignal.timeout and AbortSignal.any replaced after the runtime loaded', () => {
  test('a read the site never answers ends at data-timeout-ms with the timeout\'s reason, though the page\'s signals never abort', async ({ page, demo }) => {
    // The same page with a short timeout, and a navigation endpoint that never answers.
    await page.route((url) => url.pathname === '/contact/plain', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace('<script type="module" src="/dist/capell-webmcp.js"', '<script type="module" src="/dist/capell-webmcp.js" data-timeout-ms="800"') });
    });
    await page.route((url) => url.pathname === '/agent/v1/navigation', () => {});
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    await page.evaluate(() => {
      const never = () => new AbortController().signal;
      AbortSignal.timeout = never;
      AbortSignal.any = never;
    });
    const result = await call(page, 'site.navigation', {});
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('was sent but no answer came within 800 ms');
  });
});

test.describe('what is sent, and where: JSON.stringify replaced after the runtime loaded', () => {
  test.beforeEach(openContact);

  test('a write endpoint sends the body the panel showed, not the one the page\'s JSON.stringify makes of it', async ({ page, demo }) => {
    await page.evaluate(() => {
      const stringify = JSON.stringify;
      JSON.stringify = ((value: unknown, ...rest: []) => stringify(value && typeof value === 'object' && 'email' in value ? { ...value, email: 'attacker@evil.test' } : value, ...rest)) as typeof JSON.stringify;
    });
    await startCall(page, 'newsletter.subscribe', { email: 'ada@example.test' });
    const panel = new PanelDriver(page);
    await panel.waitText('ada@example.test');
    await panel.click('Send');
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'submitted', httpStatus: 200 });
    expect(demo.subscriptions.at(-1)).toBe('ada@example.test');
    expect(demo.subscriptions).not.toContain('attacker@evil.test');
  });
});

test.describe('whose act it is: the submit guard\'s and the panel\'s built-ins replaced after the runtime loaded', () => {
  test.beforeEach(openContact);

  test('addEventListener, preventDefault and HTMLFormElement.prototype.submit replaced: the page\'s own submits and the person\'s click on the page\'s button send nothing, and the panel\'s Send still sends it once', async ({ page, demo }) => {
    await page.evaluate(() => {
      // Listeners for submits and navigations are dropped, preventDefault does nothing, and
      // form.submit() is the page's own, which keeps the browser's.
      const add = EventTarget.prototype.addEventListener;
      EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
        if (type === 'submit' || type === 'navigate') return;
        return (add as (...args: unknown[]) => void).call(this, type, ...rest);
      };
      Event.prototype.preventDefault = () => undefined;
      const native = HTMLFormElement.prototype.submit;
      Object.assign(window, { nativeSubmit: native });
      HTMLFormElement.prototype.submit = function (this: HTMLFormElement) { native.call(this); };
    });
    const driver = await armedContactProposal(page);
    const outcome = callResult(page);
    // Where the person will click, read now: once the browser's submission was started (and
    // cancelled), Playwright's locators wait on it as on a navigation that never finishes.
    const send = (await page.locator(SEND).boundingBox())!;
    await page.evaluate(() => {
      const form = document.getElementById('capell-form-contact') as HTMLFormElement;
      form.requestSubmit();
      form.requestSubmit(form.querySelector('button[type="submit"]'));
      (window as unknown as { nativeSubmit: (this: HTMLFormElement) => void }).nativeSubmit.call(form);
    });
    await page.waitForTimeout(500);
    expect(demo.formPosts).toEqual([]);
    // The person's click on the page's own button: refused (the guard's listeners are the runtime's own).
    await page.mouse.click(send.x + send.width / 2, send.y + send.height / 2);
    await driver.waitText(PAGE_CONTROL);
    expect(demo.formPosts).toEqual([]);
    await driver.scrollToEnd();
    await driver.waitArmed();
    await driver.click('Send');
    expect(answerOf(await outcome)).toEqual({ status: 'submitted', httpStatus: 200 });
    expect(demo.formPosts).toHaveLength(1);
    await driver.waitText('Sent.');
  });

  test('KeyboardEvent.prototype.key made to say "Enter": a letter typed in the name field sends nothing, though the page submits on it', async ({ page, demo }) => {
    // Tall enough that the panel leaves the name field uncovered: the person clicks into it.
    await page.setViewportSize({ width: 1280, height: 1600 });
    await armedContactProposal(page);
    await page.evaluate(() => {
      const key = Object.getOwnPropertyDescriptor(KeyboardEvent.prototype, 'key')!.get!;
      Object.defineProperty(KeyboardEvent.prototype, 'key', { configurable: true, get() { return 'Enter'; } });
      const form = document.getElementById('capell-form-contact') as HTMLFormElement;
      // The page's own "submit on Enter" handler reads the real key, and submits on any.
      form.addEventListener('keydown', (event) => {
        if (key.call(event) !== 'Enter') form.requestSubmit(form.querySelector('button[type="submit"]'));
      });
    });
    await page.locator('#capell-form-contact-name').click();
    await page.keyboard.press('End');
    await page.keyboard.type('x');
    await page.waitForTimeout(500);
    expect(await page.locator('#capell-form-contact-name').inputValue()).toBe(`${PROPOSAL.name}x`);
    expect(demo.formPosts).toEqual([]);
  });

  test('Node.prototype.contains made to say yes: a click on the page\'s "Next page" button that submits the form sends nothing', async ({ page, demo }) => {
    await page.evaluate(() => {
      const next = document.createElement('button');
      next.type = 'button';
      next.id = 'next-page';
      next.textContent = 'Next page →';
      next.addEventListener('click', () => {
        const form = document.getElementById('capell-form-contact') as HTMLFormElement;
        form.requestSubmit(form.querySelector('button[type="submit"]'));
      });
      document.querySelector('#capell-form-contact button[type="submit"]')!.after(next);
    });
    await armedContactProposal(page);
    await page.evaluate(() => { Node.prototype.contains = () => true; });
    await page.locator('#next-page').click();
    await page.waitForTimeout(500);
    expect(demo.formPosts).toEqual([]);
  });

  test('a page that wrapped addEventListener holds the panel\'s Send listener: calling it with an event of its own, or with the person\'s click elsewhere, sends nothing', async ({ page, demo }) => {
    await page.evaluate(() => {
      const add = EventTarget.prototype.addEventListener;
      const held: { listener: EventListenerOrEventListenerObject; button: Element }[] = [];
      Object.assign(window, { held });
      EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions) {
        if (type === 'click' && this instanceof HTMLButtonElement && this.classList.contains('send')) held.push({ listener, button: this });
        return add.call(this, type, listener, options);
      };
    });
    const subscribed = demo.subscriptions.length;
    await startCall(page, 'newsletter.subscribe', { email: 'forged@example.test' });
    const panel = new PanelDriver(page);
    await panel.waitText('forged@example.test');
    await panel.waitArmed();
    const held = await page.evaluate(() => {
      const { held } = window as unknown as { held: { listener: EventListenerOrEventListenerObject; button: Element }[] };
      const call = (event: unknown) => {
        for (const { listener } of held) {
          try {
            (typeof listener === 'function' ? listener : listener.handleEvent.bind(listener))(event as Event);
          } catch {
            // The panel may refuse by throwing.
          }
        }
      };
      // An object of the page's own that says it is the person's click on Send.
      for (const { button } of held) call({ isTrusted: true, type: 'click', target: button, currentTarget: button, detail: 1, clientX: 0, clientY: 0 });
      // And the person's next click anywhere on the page, handed on.
      document.addEventListener('click', (event) => call(event), true);
      return held.length;
    });
    expect(held).toBeGreaterThan(0);
    await page.locator('h1').first().click();
    await page.waitForTimeout(500);
    expect(demo.subscriptions.length).toBe(subscribed);
    await panel.click('Cancel');
    expect(answerOf(await callResult(page))).toMatchObject({ status: 'cancelled' });
    expect(demo.subscriptions.length).toBe(subscribed);
  });
});

test.describe('what the person sees: the checks\' built-ins replaced after the runtime loaded', () => {
  test.beforeEach(openContact);

  test('window.getComputedStyle made to report the send button\'s text readable and no generated content: the person\'s click on the button drawn as "Next page →" still sends nothing', async ({ page, demo }) => {
    const panel = await armedContactProposal(page);
    await page.evaluate(() => {
      const real = window.getComputedStyle;
      window.getComputedStyle = function (element: Element, pseudo?: string | null) {
        const style = real.call(window, element, pseudo);
        if (!element.closest('#capell-form-contact')) return style;
        return new Proxy(style, {
          get(target, key) {
            if (key === 'content') return 'none';
            if (key === 'color' || key === 'webkitTextFillColor') return 'rgb(255, 255, 255)';
            const value = Reflect.get(target, key, target);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      } as typeof getComputedStyle;
    });
    await drawNextPageOverSend(page);
    await page.locator(SEND).click();
    await panel.waitText(PAGE_CONTROL);
    expect(demo.formPosts).toEqual([]);
  });

  test('CSSStyleDeclaration.prototype made to report the send button\'s text readable and no generated content: the person\'s click on the button drawn as "Next page →" still sends nothing', async ({ page, demo }) => {
    const panel = await armedContactProposal(page);
    await page.evaluate(() => {
      // Every computed style read through its prototype, getPropertyValue or the named accessors, lies.
      const proto = CSSStyleDeclaration.prototype;
      const value = proto.getPropertyValue;
      const lie = (name: string, real: string) => (name === 'content' ? 'none' : name === 'color' || name === '-webkit-text-fill-color' ? 'rgb(255, 255, 255)' : real);
      proto.getPropertyValue = function (this: CSSStyleDeclaration, name: string) { return lie(name, value.call(this, name)); };
      for (const [key, name] of [['content', 'content'], ['color', 'color'], ['webkitTextFillColor', '-webkit-text-fill-color']]) {
        Object.defineProperty(proto, key!, { configurable: true, get(this: CSSStyleDeclaration) { return lie(name!, value.call(this, name!)); } });
      }
    });
    await drawNextPageOverSend(page);
    await page.locator(SEND).click();
    await panel.waitText(PAGE_CONTROL);
    expect(demo.formPosts).toEqual([]);
  });

  test('document.caretPositionFromPoint made to answer nothing where a closed shadow root draws: the person\'s click on the send button whose root draws "Next page →" still sends nothing', async ({ page, demo }) => {
    const panel = await armedContactProposal(page);
    await page.evaluate(() => {
      const caret = Document.prototype.caretPositionFromPoint;
      Document.prototype.caretPositionFromPoint = function (this: Document, x: number, y: number, options?: object) {
        const position = caret.call(this, x, y, options);
        return position && position.offsetNode.nodeType !== Node.TEXT_NODE ? null : position;
      };
      const button = document.querySelector('#capell-form-contact button[type="submit"]')!;
      const span = document.createElement('span');
      span.className = 't';
      span.append(...button.childNodes);
      button.append(span);
      const root = span.attachShadow({ mode: 'closed' });
      const hidden = document.createElement('span');
      hidden.style.opacity = '0';
      hidden.append(document.createElement('slot'));
      const drawn = document.createElement('span');
      drawn.textContent = 'Next page →';
      root.append(hidden, drawn);
    });
    await page.locator(SEND).click();
    await panel.waitText(PAGE_CONTROL);
    expect(demo.formPosts).toEqual([]);
  });

  test('Element.prototype.getBoundingClientRect made to report a button-sized box for a send button stretched, transparent, over the top of the page: a click elsewhere on the page (on it) still sends nothing', async ({ page, demo }) => {
    const panel = await armedContactProposal(page);
    await page.evaluate(() => {
      const send = document.querySelector('#capell-form-contact button[type="submit"]') as HTMLElement;
      const label = document.createRange();
      label.selectNodeContents(send);
      const real = Element.prototype.getBoundingClientRect;
      Element.prototype.getBoundingClientRect = function (this: Element) {
        if (this !== send) return real.call(this);
        // Around its label, where a person would see a button.
        const text = label.getBoundingClientRect();
        return new DOMRect(text.x - 16, text.y - 8, text.width + 32, text.height + 16);
      };
      // Over the top 30% of the window (the panel docks below it, so nothing covers the button).
      send.style.cssText = 'position: fixed; left: 0; right: 0; top: 0; height: 30vh; margin: 0; z-index: 10; background: transparent; border: 0; color: black';
    });
    // The person clicks near the page's top left, on what reads as the page's header.
    await page.mouse.click(20, 20);
    await panel.waitText(PAGE_CONTROL);
    expect(demo.formPosts).toEqual([]);
  });

  test('document.elementsFromPoint made to put the field on top: a field under an opaque cover is still refused, naming the cover', async ({ page, demo }) => {
    await page.evaluate(() => {
      const field = document.getElementById('capell-form-contact-name')!;
      const p = field.closest('p')!;
      p.style.position = 'relative';
      const cover = document.createElement('div');
      cover.className = 'cover';
      cover.style.cssText = 'position: absolute; inset: 0; background: #fbfaf6';
      p.append(cover);
      const real = Document.prototype.elementsFromPoint;
      Document.prototype.elementsFromPoint = function (this: Document, x: number, y: number) {
        return [field, ...real.call(this, x, y).filter((element) => element !== cover)];
      };
    });
    const result = await call(page, 'form.submit.capell-form-contact', PROPOSAL);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^cannot fill form #capell-form-contact for form\.submit\.capell-form-contact: name: the control is not visible to the person \(covered by div\.cover at 9 of 9 points \(hit-testing\)\)/);
    expect(await page.locator('#capell-form-contact-name').inputValue()).toBe('');
    expect(demo.formPosts).toEqual([]);
  });

  test('IntersectionObserverEntry.prototype.isVisible made to say yes: a page popover that lets the pointer through over the panel\'s Send, reading "Next page →", is still refused', async ({ page, demo }) => {
    await page.evaluate(() => {
      Object.defineProperty(IntersectionObserverEntry.prototype, 'isVisible', { configurable: true, get() { return true; } });
    });
    const panel = await armedContactProposal(page);
    const send = (await panel.state())!.buttons.find((button) => button.text === 'Send')!;
    // Opened after the panel: above it in the top layer.
    await page.evaluate(({ x, y }) => {
      const cover = document.createElement('div');
      cover.className = 'next';
      cover.setAttribute('popover', 'manual');
      cover.textContent = 'Next page →';
      document.body.append(cover);
      cover.style.cssText = `position: fixed; inset: auto; left: ${x - 60}px; top: ${y - 25}px; width: 120px; height: 50px; margin: 0; border: 0; display: grid; place-items: center; background: #2f6b4f; color: white; pointer-events: none`;
      cover.showPopover();
    }, send);
    await page.waitForTimeout(600);
    await panel.clickNow('Send');
    await panel.waitText('That did not count: this panel was hidden or covered');
    expect(demo.formPosts).toEqual([]);
  });
});
