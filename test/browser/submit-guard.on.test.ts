/**
 * The submit guard (src/write/forms/submit-guard.ts) in real Chromium, against the page scripts that
 * sent a filled form without the person: a site's "submit on change" handler firing on the
 * runtime's own fill and restore events, `form.submit()`, the prototype's `submit`, and a site
 * handler that stops the submit event. The form lives in a same-origin iframe whose realm runs
 * the runtime's modules (guard-frame.html), so a submission that gets through navigates the
 * frame, and the server's form sink counts it: "nothing was sent" is counted where it matters.
 */
import { expect } from 'chai';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import type { armSubmitGuard, readUnguardableReason } from '../../src/write/forms/submit-guard.ts';
import type { planFill } from '../../src/write/forms/controls.ts';
import type { fillControls, restoreControls } from '../../src/write/forms/fill.ts';

interface RuntimeModules {
  armSubmitGuard: typeof armSubmitGuard;
  readUnguardableReason: typeof readUnguardableReason;
  planFill: typeof planFill;
  fillControls: typeof fillControls;
  restoreControls: typeof restoreControls;
}

type FrameWindow = Window & typeof globalThis & { runtimeModules: RuntimeModules };

/** How long a submission that got through takes to reach the server at most, in ms. */
const SETTLE_MS = 400;

const WORDS = { yes: 'Yes', no: 'No' };

let frame: HTMLIFrameElement | undefined;
let frameWindow: FrameWindow;
let modules: RuntimeModules;
let form: HTMLFormElement;
let key: string;

/** Loads guard-frame.html and puts a form that submits to the counting sink into it. */
async function mountFrameForm(html: string, method: 'post' | 'get' = 'post'): Promise<HTMLFormElement> {
  frame = document.createElement('iframe');
  frame.style.cssText = 'position: fixed; top: 0; left: 0; width: 480px; height: 320px; border: 0; z-index: 10000; background: white';
  const loaded = new Promise((resolve) => frame!.addEventListener('load', resolve, { once: true }));
  frame.src = new URL('./guard-frame.html', import.meta.url).href;
  document.body.append(frame);
  await loaded;
  frameWindow = frame.contentWindow as FrameWindow;
  if (!frameWindow.runtimeModules) await new Promise((resolve) => frameWindow.addEventListener('runtime-modules-ready', resolve, { once: true }));
  modules = frameWindow.runtimeModules;
  key = `k${Math.random().toString(36).slice(2)}`;
  const doc = frameWindow.document;
  form = doc.createElement('form');
  form.id = 'fixture';
  form.method = method;
  form.action = `/test-fixtures/form-sink?key=${key}`;
  form.innerHTML = html;
  if (method === 'get') {
    // A GET submission replaces the query: the key goes in a field of its own.
    form.action = '/test-fixtures/form-sink';
    form.insertAdjacentHTML('beforeend', `<input type="hidden" name="key" value="${key}">`);
  }
  doc.body.append(form);
  return form;
}

/** How many submissions of the form reached the server, after letting any in flight arrive. */
async function sentCount(settleMs = SETTLE_MS): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const response = await fetch(`/test-fixtures/form-sink-count?key=${key}`, { cache: 'no-store' });
  return ((await response.json()) as { count: number }).count;
}

/** Waits until at least one submission reached the server (for the fixtures that must send). */
async function sentAtLeastOnce(): Promise<number> {
  let count = 0;
  for (let tries = 0; tries < 20 && count === 0; tries++) count = await sentCount(100);
  return count;
}

/** The site's ordinary "submit when the select changes" handler (the finding). */
function submitOnChange(target: HTMLFormElement, defer = false): void {
  target.addEventListener('change', (event) => {
    const { form: owner } = event.target as HTMLSelectElement;
    if (defer) setTimeout(() => owner?.requestSubmit(), 0);
    else owner?.requestSubmit();
  });
}

/** Plans and fills the fixture form as form.ts does (panel aside). */
function fill(input: Record<string, unknown>): ReturnType<RuntimeModules['fillControls']> {
  const plan = modules.planFill(form, input, WORDS);
  if (!plan.ok) throw new Error(plan.reason);
  return modules.fillControls(plan.steps);
}

/** Clicks `element` inside the frame with the real mouse (a trusted click: the person's act). */
async function clickAsPerson(element: Element): Promise<void> {
  const outer = frame!.getBoundingClientRect();
  const inner = element.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(outer.left + inner.left + inner.width / 2), Math.round(outer.top + inner.top + inner.height / 2)] });
}

const FIELDS = `<input name="name" aria-label="Name">
  <select name="topic" aria-label="Topic"><option value="">Choose</option><option value="order">Order</option><option value="repair">Repair</option></select>
  <button type="submit">Send</button>`;

afterEach(() => {
  frame?.remove();
  frame = undefined;
});

describe('submit guard: nothing leaves while the runtime fills or restores', () => {
  it('(the fixture is faithful) without the guard, the change handler\'s requestSubmit sends the filled form', async () => {
    await mountFrameForm(FIELDS);
    submitOnChange(form);
    fill({ name: 'Ada', topic: 'repair' });
    expect(await sentAtLeastOnce()).to.be.greaterThan(0);
  });

  it('a change handler that calls requestSubmit does not send while filling', async () => {
    await mountFrameForm(FIELDS);
    submitOnChange(form);
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada', topic: 'repair' });
    expect(await sentCount()).to.equal(0);
    // Stopped at the submit event (one per filled control's change): the browser's submission
    // never started, so the navigate backstop had nothing to do.
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['submit-event', 'submit-event']);
    await guard.disarm();
  });

  it('a change handler that calls requestSubmit does not send while restoring on Cancel either', async () => {
    await mountFrameForm(FIELDS);
    submitOnChange(form);
    (form.elements.namedItem('topic') as HTMLSelectElement).value = 'order';
    const guard = modules.armSubmitGuard(form);
    const records = fill({ name: 'Ada', topic: 'repair' });
    const blockedWhileFilling = guard.blocked.length;
    modules.restoreControls(records);
    expect(guard.blocked.length).to.be.greaterThan(blockedWhileFilling);
    await guard.disarm();
    expect((form.elements.namedItem('topic') as HTMLSelectElement).value).to.equal('order');
    expect(await sentCount()).to.equal(0);
  });

  it('a change handler that defers requestSubmit (setTimeout 0) does not send after the restore either', async () => {
    await mountFrameForm(FIELDS);
    submitOnChange(form, true);
    const guard = modules.armSubmitGuard(form);
    const records = fill({ name: 'Ada', topic: 'repair' });
    modules.restoreControls(records);
    // As form.ts does: disarm right after the last restore, without waiting.
    const off = guard.disarm();
    expect(guard.armed).to.equal(true);
    await off;
    expect(guard.armed).to.equal(false);
    expect(await sentCount()).to.equal(0);
    // Once the guard is off the page is back to normal: the same submit now goes out.
    form.requestSubmit();
    expect(await sentAtLeastOnce()).to.equal(1);
  });
});

describe('submit guard: form.submit() and the prototype', () => {
  it('form.submit() while the panel is open sends nothing, and is reported', async () => {
    await mountFrameForm(FIELDS);
    const reported: string[] = [];
    const guard = modules.armSubmitGuard(form, { onBlockedSubmit: ({ way }) => reported.push(way) });
    fill({ name: 'Ada' });
    form.submit();
    expect(await sentCount()).to.equal(0);
    expect(reported).to.deep.equal(['form.submit()']);
    await guard.disarm();
  });

  it('HTMLFormElement.prototype.submit.call(form) sends nothing', async () => {
    await mountFrameForm(FIELDS);
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    frameWindow.HTMLFormElement.prototype.submit.call(form);
    expect(await sentCount()).to.equal(0);
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['form.submit()']);
    await guard.disarm();
  });

  it('an original submit a page script kept from before (or took from another realm) is cancelled by the navigate backstop', async () => {
    await mountFrameForm(FIELDS);
    const kept = frameWindow.HTMLFormElement.prototype.submit;
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    kept.call(form);
    expect(await sentCount()).to.equal(0);
    HTMLFormElement.prototype.submit.call(form); // the test page's realm: never patched for the frame
    expect(await sentCount()).to.equal(0);
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['navigation', 'navigation']);
    await guard.disarm();
  });

  it('the backstop also holds back a GET form\'s submission (no formData)', async () => {
    await mountFrameForm(FIELDS, 'get');
    const kept = frameWindow.HTMLFormElement.prototype.submit;
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    kept.call(form);
    expect(await sentCount()).to.equal(0);
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['navigation']);
    await guard.disarm();
  });

  it('patches the prototype while any form is armed and puts the original descriptor back exactly after the last', async () => {
    await mountFrameForm(`${FIELDS}`);
    const other = form.ownerDocument.createElement('form');
    form.ownerDocument.body.append(other);
    const proto = frameWindow.HTMLFormElement.prototype;
    const original = Object.getOwnPropertyDescriptor(proto, 'submit');
    const first = modules.armSubmitGuard(form);
    const second = modules.armSubmitGuard(other);
    const patched = Object.getOwnPropertyDescriptor(proto, 'submit');
    expect(patched?.value).to.not.equal(original?.value);
    expect({ ...patched, value: undefined }).to.deep.equal({ ...original, value: undefined });
    await first.disarm();
    expect(Object.getOwnPropertyDescriptor(proto, 'submit')?.value).to.equal(patched?.value);
    await second.disarm();
    expect(Object.getOwnPropertyDescriptor(proto, 'submit')).to.deep.equal(original);
  });

  it('leaves other forms\' submit() alone while one form is armed', async () => {
    await mountFrameForm(FIELDS);
    const other = form.ownerDocument.createElement('form');
    other.method = 'post';
    other.action = `/test-fixtures/form-sink?key=${key}`;
    form.ownerDocument.body.append(other);
    const guard = modules.armSubmitGuard(form);
    other.submit();
    expect(await sentAtLeastOnce()).to.equal(1);
    // The frame navigated: its guard went with its document (its timers never run again).
    expect(guard.blocked).to.deep.equal([]);
  });
});

describe('submit guard: page handlers that stop the submit event', () => {
  it('a site handler that stops propagation of submit does not open the native path', async () => {
    await mountFrameForm(FIELDS);
    submitOnChange(form);
    form.addEventListener('submit', (event) => event.stopImmediatePropagation());
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada', topic: 'repair' });
    form.requestSubmit();
    expect(await sentCount()).to.equal(0);
    // Prevented in the capture phase, before the site's handler stopped it: never a navigation.
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['submit-event', 'submit-event', 'submit-event']);
    await guard.disarm();
  });

  it('a site submit script that ignores defaultPrevented and sends by itself (as Livewire\'s wire:submit does) never sees a submit the guard refused', async () => {
    await mountFrameForm(FIELDS);
    const scriptSends: string[] = [];
    // The site's own script on the form: it prevents the native submission and "sends" its state itself.
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      scriptSends.push((form.elements.namedItem('name') as HTMLInputElement).value);
    });
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    form.requestSubmit();
    expect(await sentCount()).to.equal(0);
    expect(scriptSends).to.deep.equal([]);
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['submit-event']);
    await guard.disarm();
    // Once the guard is off the site's script has the page's submits again.
    form.requestSubmit();
    expect(scriptSends).to.deep.equal(['Ada']);
  });

  it('a window capture listener registered before the guard that stops the event reaches the navigate backstop, which cancels it', async () => {
    await mountFrameForm(FIELDS);
    frameWindow.addEventListener('submit', (event) => event.stopImmediatePropagation(), true);
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    form.requestSubmit();
    expect(await sentCount()).to.equal(0);
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['navigation']);
    await guard.disarm();
  });
});

/** The reason the caller gives for the person's own page act (form.ts gives the panel's words). */
const pageActReason = (kind: 'click' | 'enter') => `page ${kind}: only the panel's Send sends`;

describe('submit guard: the panel\'s Send (guard.send) and the person\'s acts on the page', () => {
  it('send(submitter) lets exactly its own submit through (native): one submission, through that submitter; a script\'s submit beside it is blocked', async () => {
    await mountFrameForm(FIELDS);
    submitOnChange(form);
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { pageActReason, onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada', topic: 'repair' });
    const seen: { prevented: boolean; submitter: Element | null }[] = [];
    guard.connect((event) => seen.push({ prevented: event.defaultPrevented, submitter: event.submitter }));
    // A script's submits (the change handler's during the fill, and these) reach neither the caller nor the server.
    form.requestSubmit();
    form.querySelector('button')!.click();
    expect(seen).to.deep.equal([]);
    const button = form.querySelector('button')!;
    expect(guard.send(button)).to.equal(undefined);
    expect(seen).to.deep.equal([{ prevented: false, submitter: button }]);
    expect(await sentAtLeastOnce()).to.equal(1);
    expect(await sentCount()).to.equal(1);
    // Blocked silently: a script's submit is not the person's, so nothing is shown to them.
    expect(refused).to.deep.equal([]);
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['submit-event', 'submit-event', 'submit-event', 'submit-event']);
  });

  it('the person\'s own click on the form\'s submit button is refused with pageActReason(\'click\'): nothing is sent, the caller is not called', async () => {
    await mountFrameForm(FIELDS);
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { pageActReason, onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    await clickAsPerson(form.querySelector('button')!);
    expect(await sentCount()).to.equal(0);
    expect(refused).to.deep.equal([pageActReason('click')]);
    expect(delivered).to.deep.equal([]);
    // The proposal is still open: the panel's Send still sends it.
    expect(guard.send(form.querySelector('button'))).to.equal(undefined);
    expect(delivered).to.have.length(1);
    expect(await sentAtLeastOnce()).to.equal(1);
  });

  it('the person\'s click on a second submit button of the form, or one outside it (form=), is refused the same way', async () => {
    await mountFrameForm(`${FIELDS}<button type="submit" name="page" value="2">Next page →</button>`);
    form.ownerDocument.body.insertAdjacentHTML('beforeend', '<button form="fixture" id="outside">Load more comments</button>');
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { pageActReason, onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    await clickAsPerson(form.querySelectorAll('button')[1]!);
    await clickAsPerson(form.ownerDocument.getElementById('outside')!);
    expect(await sentCount()).to.equal(0);
    expect(refused).to.deep.equal([pageActReason('click'), pageActReason('click')]);
    expect(delivered).to.deep.equal([]);
    await guard.disarm();
  });

  it('the person\'s Enter in a text field of the form is refused with pageActReason(\'enter\'): nothing is sent', async () => {
    await mountFrameForm(FIELDS);
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { pageActReason, onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    await clickAsPerson(form.elements.namedItem('name') as HTMLInputElement);
    await sendKeys({ press: 'Enter' });
    expect(await sentCount()).to.equal(0);
    expect(refused).to.deep.equal([pageActReason('enter')]);
    expect(delivered).to.deep.equal([]);
    await guard.disarm();
  });

  it('an invalid form: send() returns the browser\'s validation reason, naming the field, and nothing is sent', async () => {
    await mountFrameForm('<label>Email <input type="email" name="email" required></label><button type="submit">Send</button>');
    const guard = modules.armSubmitGuard(form);
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    const email = form.elements.namedItem('email') as HTMLInputElement;
    email.value = 'not an address';
    const reason = guard.send(form.querySelector('button'));
    expect(reason).to.equal(`the browser finds the field “Email” not valid (${email.validationMessage}), so it did not submit the form; correct it, then press Send again; nothing was sent`);
    expect(email.validationMessage).to.not.equal('');
    expect(delivered).to.deep.equal([]);
    expect(await sentCount()).to.equal(0);
    // Corrected, the next send goes.
    email.value = 'ada@example.test';
    expect(guard.send(form.querySelector('button'))).to.equal(undefined);
    expect(await sentAtLeastOnce()).to.equal(1);
  });

  it('a form that left the page: send() says so and sends nothing; after disarm() it says the proposal is no longer held', async () => {
    await mountFrameForm(FIELDS);
    const guard = modules.armSubmitGuard(form);
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    fill({ name: 'Ada' });
    form.remove();
    expect(guard.send(form.querySelector('button'))).to.equal('the form is no longer on the page; nothing was sent');
    expect(delivered).to.deep.equal([]);
    await guard.disarm();
    expect(guard.send(form.querySelector('button'))).to.equal('the proposal is no longer held for the person; nothing was sent');
    expect(await sentCount()).to.equal(0);
  });

  it('a person\'s click while nothing is connected (the proposal is decided) is blocked', async () => {
    await mountFrameForm(FIELDS);
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    await clickAsPerson(form.querySelector('button')!);
    expect(await sentCount()).to.equal(0);
    expect(guard.blocked).to.have.length(1);
    await guard.disarm();
  });

  it('a site handler that takes the panel\'s submit over and stops it still reports it (the site sent it)', async () => {
    await mountFrameForm(FIELDS);
    form.addEventListener('submit', (event) => { event.preventDefault(); event.stopPropagation(); });
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    const seen = new Promise<boolean>((resolve) => guard.connect((event) => resolve(event.defaultPrevented)));
    expect(guard.send(form.querySelector('button'))).to.equal(undefined);
    expect(await seen).to.equal(true);
    expect(await sentCount()).to.equal(0);
    await guard.disarm();
  });

  it('a site handler that validates the panel\'s submit and then calls form.submit() itself sends it, once', async () => {
    await mountFrameForm(FIELDS);
    form.addEventListener('submit', (event) => { event.preventDefault(); form.submit(); });
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    const seen: boolean[] = [];
    guard.connect((event) => seen.push(event.defaultPrevented));
    guard.send(form.querySelector('button'));
    expect(await sentAtLeastOnce()).to.equal(1);
    expect(await sentCount()).to.equal(1);
    expect(seen).to.deep.equal([true]);
    expect(guard.blocked).to.deep.equal([]);
  });

  it('a site handler that takes the panel\'s submit over and sends it later with form.submit() sends it: the guard stood down', async () => {
    await mountFrameForm(FIELDS);
    form.addEventListener('submit', (event) => { event.preventDefault(); setTimeout(() => form.submit(), 50); });
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    const seen: boolean[] = [];
    guard.connect((event) => seen.push(event.defaultPrevented));
    guard.send(form.querySelector('button'));
    expect(guard.armed).to.equal(false);
    expect(await sentAtLeastOnce()).to.equal(1);
    expect(seen).to.deep.equal([true]);
  });

  it('a site handler that stops the panel\'s submit without taking it over: held back, and the person is told', async () => {
    await mountFrameForm(FIELDS);
    form.addEventListener('submit', (event) => event.stopPropagation());
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    guard.connect(() => { throw new Error('not reached'); });
    guard.send(form.querySelector('button'));
    expect(await sentCount()).to.equal(0);
    expect(refused).to.deep.equal(['the page stopped the submit event before the runtime could send it, so the browser\'s submission was held back; nothing was sent']);
    await guard.disarm();
  });
});

describe('submit guard: forms it cannot guard', () => {
  const cases: [string, string, (form: HTMLFormElement) => void, RegExp][] = [
    ['a form with target=_blank', 'target', (target) => target.setAttribute('target', '_blank'), /^form #fixture submits to target="_blank", another browsing context, where the runtime cannot hold its submission back; only forms that submit in this page can be filled$/],
    ['a form named into a frame', 'target', (target) => target.setAttribute('target', 'results'), /^form #fixture submits to target="results"/],
    ['a page whose <base target> is _blank', 'base', (target) => target.ownerDocument.head.insertAdjacentHTML('beforeend', '<base target="_blank">'), /^form #fixture submits to the page's <base target="_blank">/],
    ['a submit button with formtarget', 'formtarget', (target) => target.querySelector('button')!.setAttribute('formtarget', '_blank'), /^a submit control of form #fixture has formtarget="_blank", another browsing context/],
  ];
  for (const [what, , edit, reason] of cases) {
    it(`refuses ${what}`, async () => {
      await mountFrameForm(FIELDS);
      edit(form);
      expect(modules.readUnguardableReason(form)).to.match(reason);
    });
  }

  it('accepts target="_self" and an own target that overrides a <base target>', async () => {
    await mountFrameForm(FIELDS);
    form.setAttribute('target', '_SELF');
    expect(modules.readUnguardableReason(form)).to.equal(undefined);
    form.ownerDocument.head.insertAdjacentHTML('beforeend', '<base target="_blank">');
    form.setAttribute('target', '');
    expect(modules.readUnguardableReason(form)).to.equal(undefined);
  });
});

describe('submit guard: what counts as the person\'s act (red team a10, a03)', () => {
  it('a10: Enter for a new line in a textarea, which the page\'s keydown handler turns into requestSubmit, sends nothing', async () => {
    await mountFrameForm(`<input name="name" aria-label="Name"><textarea name="message" aria-label="Message"></textarea><button type="submit">Send</button>`);
    const message = form.elements.namedItem('message') as HTMLTextAreaElement;
    message.addEventListener('keydown', (event) => { if (event.key === 'Enter') form.requestSubmit(); });
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    await clickAsPerson(message);
    await sendKeys({ press: 'Enter' });
    expect(await sentCount()).to.equal(0);
    expect(delivered).to.deep.equal([]);
    expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['submit-event']);
    await guard.disarm();
  });

  it('a10: Enter in a select or on a checkbox of the form sends nothing (a script\'s submit, blocked), nor does Enter in a text input (the person\'s, refused)', async () => {
    await mountFrameForm(`<input name="name" aria-label="Name"><input type="checkbox" name="news" aria-label="News">
      <select name="topic" aria-label="Topic"><option value="">Choose</option><option value="repair">Repair</option></select><button type="submit">Send</button>`);
    for (const name of ['news', 'topic']) {
      (form.elements.namedItem(name) as HTMLElement).addEventListener('keydown', (event) => { if (event.key === 'Enter') form.requestSubmit(); });
    }
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { pageActReason, onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    (form.elements.namedItem('news') as HTMLInputElement).focus();
    await sendKeys({ press: 'Enter' });
    (form.elements.namedItem('topic') as HTMLSelectElement).focus();
    await sendKeys({ press: 'Enter' });
    // The browser's own implicit submission from a text field: the person's Enter, refused.
    await clickAsPerson(form.elements.namedItem('name') as HTMLInputElement);
    await sendKeys({ press: 'Enter' });
    expect(await sentCount()).to.equal(0);
    expect(delivered).to.deep.equal([]);
    expect(refused.at(-1)).to.equal(pageActReason('enter'));
    await guard.disarm();
  });

  /** A search box outside the form; on the person's "x" the page moves the focus to Send. */
  function stealFocusOnTyping(): HTMLInputElement {
    const search = form.ownerDocument.createElement('input');
    search.setAttribute('aria-label', 'Search the shop');
    form.ownerDocument.body.prepend(search);
    const button = form.querySelector('button')!;
    search.addEventListener('keydown', (event) => { if (event.key === 'x') setTimeout(() => button.focus(), 0); });
    return search;
  }

  for (const [key, kind] of [['Enter', 'enter'], ['Space', 'click']] as const) {
    it(`a03: the page moves the focus to the submit button while the person types elsewhere; ${key} on it sends nothing and the person is told`, async () => {
      await mountFrameForm(FIELDS);
      const search = stealFocusOnTyping();
      const refused: string[] = [];
      const guard = modules.armSubmitGuard(form, { pageActReason, onRefusedSubmit: (reason) => refused.push(reason) });
      fill({ name: 'Ada' });
      const delivered: unknown[] = [];
      guard.connect((event) => delivered.push(event.type));
      await clickAsPerson(search);
      await sendKeys({ press: 'x' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(form.ownerDocument.activeElement === form.querySelector('button'), 'the page moved the focus to the button').to.equal(true);
      await sendKeys({ press: key });
      expect(await sentCount()).to.equal(0);
      expect(delivered).to.deep.equal([]);
      expect(refused).to.deep.equal([pageActReason(kind)]);
      await guard.disarm();
    });
  }

  it('a03: Enter on the submit button sends nothing whether the page focused it (focus()) or the person did (Tab)', async () => {
    await mountFrameForm(`<input name="name" aria-label="Name"><button type="submit">Send</button>`);
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { pageActReason, onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    const button = form.querySelector('button')!;
    button.focus();
    await sendKeys({ press: 'Enter' });
    await clickAsPerson(form.elements.namedItem('name') as HTMLInputElement);
    await sendKeys({ press: 'Tab' });
    expect(form.ownerDocument.activeElement === button, 'Tab reached the button').to.equal(true);
    await sendKeys({ press: 'Enter' });
    expect(await sentCount()).to.equal(0);
    expect(delivered).to.deep.equal([]);
    expect(refused).to.deep.equal([pageActReason('enter'), pageActReason('enter')]);
    await guard.disarm();
  });
});

describe('submit guard: the form\'s target and other realms (red team a02)', () => {
  /** A same-origin frame named `name` inside the form's document. */
  async function addSink(name: string): Promise<HTMLIFrameElement> {
    const sink = form.ownerDocument.createElement('iframe');
    sink.name = name;
    sink.src = 'about:blank';
    form.ownerDocument.body.append(sink);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return sink;
  }

  it('a02: a target pointed at a frame after arming blocks even the panel\'s own send, and says why', async () => {
    await mountFrameForm(FIELDS);
    await addSink('sink');
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event.type));
    form.setAttribute('target', 'sink');
    expect(guard.send(form.querySelector('button'))).to.equal(undefined);
    expect(await sentCount()).to.equal(0);
    expect(delivered).to.deep.equal([]);
    expect(refused).to.deep.equal(['the page changed where the form submits: form #fixture submits to target="sink", another browsing context, where the runtime cannot hold its submission back; only forms that submit in this page can be filled; nothing was sent']);
    await guard.disarm();
  });

  it('a02: a formtarget added after arming blocks a site handler\'s form.submit() inside the panel\'s submit', async () => {
    await mountFrameForm(FIELDS);
    await addSink('sink');
    form.addEventListener('submit', (event) => { event.preventDefault(); form.submit(); });
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    guard.connect(() => undefined);
    form.ownerDocument.body.insertAdjacentHTML('beforeend', '<button type="submit" form="fixture" formtarget="sink" style="display: none">Elsewhere</button>');
    form.querySelector('button')!.removeAttribute('formtarget');
    guard.send(form.querySelector('button'));
    expect(await sentCount()).to.equal(0);
    expect(refused.some((reason) => /^the page changed where the form submits: a submit control of form #fixture has formtarget="sink"/.test(reason))).to.equal(true);
    await guard.disarm();
  });

  for (const when of ['before arming', 'while armed']) {
    it(`a02: another same-origin frame's HTMLFormElement.prototype.submit, called on the retargeted form, sends nothing (frame added ${when})`, async () => {
      await mountFrameForm(FIELDS);
      let sink = when === 'before arming' ? await addSink('sink') : undefined;
      const before = sink && Object.getOwnPropertyDescriptor((sink.contentWindow as Window & typeof globalThis).HTMLFormElement.prototype, 'submit');
      const guard = modules.armSubmitGuard(form);
      fill({ name: 'Ada' });
      sink ??= await addSink('sink');
      const realm = sink.contentWindow as Window & typeof globalThis;
      const descriptor = () => Object.getOwnPropertyDescriptor(realm.HTMLFormElement.prototype, 'submit');
      // Patched while armed (a frame added while armed is patched as it loads, in the same task).
      expect(Function.prototype.toString.call(descriptor()?.value)).to.not.contain('[native code]');
      form.setAttribute('target', 'sink');
      realm.HTMLFormElement.prototype.submit.call(form);
      form.removeAttribute('target');
      realm.HTMLFormElement.prototype.submit.call(form);
      expect(await sentCount()).to.equal(0);
      expect(guard.blocked.map(({ way }) => way)).to.deep.equal(['form.submit()', 'form.submit()']);
      expect(guard.blocked[0]!.reason).to.match(/^the page changed where the form submits: form #fixture submits to target="sink"/);
      await guard.disarm();
      // Put back exactly: the frame's realm is as the page left it.
      expect(Function.prototype.toString.call(descriptor()?.value)).to.contain('[native code]');
      expect({ ...descriptor(), value: undefined }).to.deep.equal({ ...Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, 'submit'), value: undefined });
      if (before) expect(descriptor()).to.deep.equal(before);
    });
  }
});
