/**
 * The submit guard (src/forms/submit-guard.ts) in real Chromium, against the page scripts that
 * sent a filled form without the person: a site's "submit on change" handler firing on the
 * runtime's own fill and restore events, `form.submit()`, the prototype's `submit`, and a site
 * handler that stops the submit event. The form lives in a same-origin iframe whose realm runs
 * the runtime's modules (guard-frame.html), so a submission that gets through navigates the
 * frame, and the server's form sink counts it: "nothing was sent" is counted where it matters.
 */
import { expect } from 'chai';
import { sendMouse } from '@web/test-runner-commands';
import type { armSubmitGuard, readUnguardableReason } from '../../src/forms/submit-guard.ts';
import type { planFill } from '../../src/forms/controls.ts';
import type { fillControls, restoreControls } from '../../src/forms/fill.ts';

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

describe('submit guard: the person\'s own act', () => {
  it('the person\'s click on the form\'s submit button goes through when the caller lets the browser submit (native)', async () => {
    await mountFrameForm(FIELDS);
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    const seen: boolean[] = [];
    guard.connect((event) => seen.push(event.defaultPrevented));
    await clickAsPerson(form.querySelector('button')!);
    expect(await sentAtLeastOnce()).to.equal(1);
    expect(seen).to.deep.equal([false]);
  });

  it('the consent check refuses the person\'s click: nothing is sent and the reason reaches the caller', async () => {
    await mountFrameForm(FIELDS);
    const checked: string[] = [];
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, {
      consentCheck: (control, event) => {
        checked.push(`${control.localName}:${event.type}:${event.isTrusted}`);
        return 'the panel was not visible';
      },
      onRefusedSubmit: (reason) => refused.push(reason),
    });
    fill({ name: 'Ada' });
    const delivered: unknown[] = [];
    guard.connect((event) => delivered.push(event));
    await clickAsPerson(form.querySelector('button')!);
    expect(await sentCount()).to.equal(0);
    expect(checked).to.deep.equal(['button:click:true']);
    expect(refused).to.deep.equal(['the panel was not visible']);
    expect(delivered).to.deep.equal([]);
    await guard.disarm();
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

  it('a site handler that takes the person\'s submit over and stops it still reports it (the site sent it)', async () => {
    await mountFrameForm(FIELDS);
    form.addEventListener('submit', (event) => { event.preventDefault(); event.stopPropagation(); });
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    const seen = new Promise<boolean>((resolve) => guard.connect((event) => resolve(event.defaultPrevented)));
    await clickAsPerson(form.querySelector('button')!);
    expect(await seen).to.equal(true);
    expect(await sentCount()).to.equal(0);
    await guard.disarm();
  });

  it('a site handler that validates the person\'s submit and then calls form.submit() itself sends it, once', async () => {
    await mountFrameForm(FIELDS);
    form.addEventListener('submit', (event) => { event.preventDefault(); form.submit(); });
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    const seen: boolean[] = [];
    guard.connect((event) => seen.push(event.defaultPrevented));
    await clickAsPerson(form.querySelector('button')!);
    expect(await sentAtLeastOnce()).to.equal(1);
    expect(await sentCount()).to.equal(1);
    expect(seen).to.deep.equal([true]);
    expect(guard.blocked).to.deep.equal([]);
  });

  it('a site handler that takes the person\'s submit over and sends it later with form.submit() sends it: the guard stood down', async () => {
    await mountFrameForm(FIELDS);
    form.addEventListener('submit', (event) => { event.preventDefault(); setTimeout(() => form.submit(), 50); });
    const guard = modules.armSubmitGuard(form);
    fill({ name: 'Ada' });
    const seen: boolean[] = [];
    guard.connect((event) => seen.push(event.defaultPrevented));
    await clickAsPerson(form.querySelector('button')!);
    expect(guard.armed).to.equal(false);
    expect(await sentAtLeastOnce()).to.equal(1);
    expect(seen).to.deep.equal([true]);
  });

  it('a site handler that stops the person\'s submit without taking it over: held back, and the person is told', async () => {
    await mountFrameForm(FIELDS);
    form.addEventListener('submit', (event) => event.stopPropagation());
    const refused: string[] = [];
    const guard = modules.armSubmitGuard(form, { onRefusedSubmit: (reason) => refused.push(reason) });
    fill({ name: 'Ada' });
    guard.connect(() => { throw new Error('not reached'); });
    await clickAsPerson(form.querySelector('button')!);
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
