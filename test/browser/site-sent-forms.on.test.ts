/**
 * Forms the site's own page script sends (issue 36; write/forms/site-redraw.ts, form.ts), in real
 * Chromium with WebMCP on: a form-builder form (controls tied by `wire:model`/id, no `name`) whose
 * `wire:submit` a small page script plays as Livewire does (test/fixtures/capell/form-builder/
 * livewire-behaviour.md: a bubble listener on the form that calls `preventDefault()`, ignores
 * `defaultPrevented`, and POSTs the component state itself; the state follows `input`/`change`
 * events; then the component is redrawn with a `role="status"` line, or with `aria-invalid`,
 * `<p id="<formId>-<key>-error">` and a `role="alert"` summary). Its POSTs go to the fixture sink,
 * which counts them: "nothing was sent" is counted at the server. The person's clicks and keys are
 * real input (@web/test-runner-commands).
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { clickMiddle, findPanel, sleep } from './closed-root.ts';
import { expect } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import { start, type Runtime } from '../../src/index.ts';
import { callTool, mountToolsIsland, unmountIslands } from './fixtures.ts';

const FORM_ID = 'capell-form-site';
const TOOL = `form.submit.${FORM_ID}`;
const INPUT = { name: 'Ada Lovelace', email: 'ada@example.test' };
const THANKS = 'Thanks, we\'ll reply within two working days.';

/** How long a POST in flight takes to reach the sink at most, in ms (before counting "none arrived"). */
const SETTLE_MS = 400;

type Outcome = 'success' | 'errors';

/** The stand-in for Livewire on one component: its state, its POSTs, and when it redraws. */
interface StandIn {
  state: Record<string, string>;
  /** How many submits the form's own listener saw. */
  submits: number;
  /** Resolve to let the redraw happen (set by `holdRedraw`). */
  releaseRedraw?: () => void;
}

let root: HTMLElement | undefined;
let runtime: Runtime | undefined;
let key = '';

afterEach(() => {
  runtime?.stop();
  runtime = undefined;
  root?.remove();
  root = undefined;
  unmountIslands();
});

/**
 * Mounts form-builder's markup for a two-field form inside a component root (`wire:id`), and its
 * tools island; `standIn` plays Livewire's client on it (omit it: a page where Livewire never loaded).
 */
function mountComponent(options: { outcome?: Outcome; holdRedraw?: boolean; standIn?: boolean } = {}): { form: HTMLFormElement; standIn: StandIn } {
  key = `k${Math.random().toString(36).slice(2)}`;
  root = document.createElement('div');
  root.setAttribute('wire:id', 'Kq7ZtR2mXv9LcB4nWp1s');
  root.style.cssText = 'position: absolute; top: 0; left: 0; width: 480px; background: white; padding: 8px';
  root.innerHTML = `<form id="${FORM_ID}" wire:submit="submit">
      <h2>Contact us</h2>
      <div><label for="${FORM_ID}-name">Name</label>
        <input type="text" wire:model="data.name" id="${FORM_ID}-name" aria-invalid="false"></div>
      <div><label for="${FORM_ID}-email">Email</label>
        <input type="email" wire:model="data.email" id="${FORM_ID}-email" aria-describedby="${FORM_ID}-email-help" aria-invalid="false">
        <p id="${FORM_ID}-email-help">We only use this to reply to you.</p></div>
      <input type="hidden" wire:model="data.source" id="${FORM_ID}-source">
      <button type="submit"><span wire:loading.remove>Submit</span><span wire:loading style="display: none">Submitting...</span></button>
    </form>`;
  document.body.prepend(root);
  mountToolsIsland({
    capellAgentSchema: 1,
    tools: [{
      name: TOOL,
      description: 'Submit this public form after user confirmation.',
      inputSchema: { type: 'object', properties: { name: { type: 'string', maxLength: 255 }, email: { type: 'string', format: 'email', maxLength: 255 } }, required: ['name', 'email'], additionalProperties: false },
      effect: 'write',
      binding: { type: 'form', target: FORM_ID },
    }],
  });
  const form = document.getElementById(FORM_ID) as HTMLFormElement;
  const standIn: StandIn = { state: { source: 'contact-page' }, submits: 0 };
  if (options.standIn !== false) playLivewire(form, standIn, options.outcome ?? 'success', options.holdRedraw ?? false);
  return { form, standIn };
}

/** Livewire's client as form-builder's form meets it (livewire-behaviour.md), pared down. */
function playLivewire(form: HTMLFormElement, standIn: StandIn, outcome: Outcome, holdRedraw: boolean): void {
  // wire:model without modifiers: the state follows input (text) and change (select, checkbox) events of the control itself.
  for (const event of ['input', 'change']) {
    form.addEventListener(event, (happened) => {
      const control = happened.target as HTMLInputElement;
      const bound = control.getAttribute('wire:model');
      if (bound?.startsWith('data.')) standIn.state[bound.slice(5)] = control.value;
    });
  }
  // wire:submit is x-on:submit.prevent: preventDefault, then send, with no defaultPrevented check.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    standIn.submits += 1;
    const redrawn = holdRedraw ? new Promise<void>((resolve) => { standIn.releaseRedraw = resolve; }) : Promise.resolve();
    void fetch(`/test-fixtures/form-sink?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-livewire': '1' }, body: JSON.stringify({ updates: standIn.state, calls: [{ method: 'submit' }] }) })
      .then(() => redrawn)
      .then(() => (outcome === 'success' ? redrawSuccess(form) : redrawErrors(form)));
  });
}

/** Success: the form is replaced by form-builder's status line (the component root stays). */
function redrawSuccess(form: HTMLFormElement): void {
  const message = document.createElement('p');
  message.setAttribute('role', 'status');
  message.setAttribute('aria-live', 'polite');
  message.textContent = `\n      ${THANKS}\n    `;
  form.replaceWith(message);
}

/** Validation failure: the same form and controls, with the summary, aria-invalid and the -error paragraph. */
function redrawErrors(form: HTMLFormElement): void {
  const summary = document.createElement('div');
  summary.setAttribute('role', 'alert');
  summary.innerHTML = '<p>Please check the highlighted fields.</p>';
  form.querySelector('h2')!.after(summary);
  const name = form.querySelector<HTMLInputElement>(`#${FORM_ID}-name`)!;
  name.setAttribute('aria-invalid', 'true');
  name.setAttribute('aria-describedby', `${FORM_ID}-name-error`);
  const error = document.createElement('p');
  error.id = `${FORM_ID}-name-error`;
  error.setAttribute('role', 'alert');
  error.textContent = '\n   The data.name field must be at least 2 characters.\n  ';
  name.after(error);
}

/** How many POSTs reached the sink for this test's key, after letting any in flight arrive. */
async function postsAtSink(): Promise<number> {
  await sleep(SETTLE_MS);
  const response = await fetch(`/test-fixtures/form-sink-count?key=${key}`, { cache: 'no-store' });
  return ((await response.json()) as { count: number }).count;
}

/** Waits for a condition, polling every 50 ms, at most `tries` times. */
async function until(condition: () => boolean, what: string, tries = 200): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (condition()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The panel's section once it is open. */
async function panelSection(): Promise<HTMLElement> {
  await until(() => findPanel()?.root.querySelector('section') != null, 'the panel to open');
  return findPanel()!.root.querySelector('section')!;
}

/** The panel once its input protection has passed and its body was read: a click now counts. */
async function armedPanel(): Promise<HTMLElement> {
  const section = await panelSection();
  await until(() => section.isConnected && section.dataset.armed === 'true' && section.dataset.unread === 'false', 'the panel to arm');
  return section;
}

function textOf(element: Element): string {
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function submitButton(): HTMLButtonElement {
  return document.querySelector<HTMLButtonElement>(`#${FORM_ID} button[type="submit"]`)!;
}

/** The panel's own Send: the person's act that sends the proposal (through the form's named submit control). */
function sendButton(section: HTMLElement): HTMLButtonElement {
  return section.querySelector<HTMLButtonElement>('button.send')!;
}

/** The panel's line when the person's click on a button of the page submitted the form (confirmReasonPageControl). */
const PAGE_CONTROL_REFUSED = 'a button of the page does not send this proposal, whatever it reads; only Send on this panel does';
/** The panel's line when the person's Enter submitted the form (confirmReasonPageEnter). */
const PAGE_ENTER_REFUSED = 'Enter in the form does not send this proposal; only Send on this panel does';

async function startRuntime(options: { writeWaitMs?: number } = {}): Promise<void> {
  runtime = start({ log: 'silent', ...options });
  await runtime.ready;
}

describe('site-sent forms: the panel', () => {
  it('says this site\'s own page script sends a wire:submit form, and names no native destination', async () => {
    mountComponent();
    await startRuntime();
    const pending = callTool(TOOL, INPUT);
    const section = await panelSection();
    await until(() => textOf(section).includes('Ada Lovelace'), 'the proposal');
    const text = textOf(section);
    expect(section.querySelector('p.sender')?.textContent).to.equal('This site\'s own page script sends it.');
    expect(section.querySelector('p.request')).to.equal(null);
    expect(text).not.to.match(/\bGET\b|\bPOST\b/);
    expect(text).to.contain('To send it, press Send on this panel; the page’s own buttons do not send it while this panel is open.');
    await clickMiddle(section.querySelector('button.cancel')!);
    expect(JSON.parse((await pending).content[0]!.text)).to.deep.include({ status: 'cancelled' });
    expect(await postsAtSink()).to.equal(0);
  });
});

describe('site-sent forms: the person\'s Send goes to the site\'s script', () => {
  it('one POST, of what the panel showed; the call answers submitted, sentBy site, with the status line the site drew', async () => {
    const { standIn } = mountComponent({ outcome: 'success' });
    await startRuntime();
    const pending = callTool(TOOL, INPUT);
    const section = await armedPanel();
    // The form's own Submit (the person's real click) is not how the proposal is sent: refused,
    // and the site's script never sees it.
    await clickMiddle(submitButton());
    await until(() => textOf(section).includes('That did not count'), 'the refusal');
    expect(textOf(section)).to.contain(PAGE_CONTROL_REFUSED);
    expect(standIn.submits).to.equal(0);
    expect(await postsAtSink()).to.equal(0);
    await armedPanel();
    await clickMiddle(sendButton(section));
    const answer = JSON.parse((await pending).content[0]!.text);
    expect(answer).to.deep.equal({ status: 'submitted', sentBy: 'site', siteShowed: THANKS });
    expect(standIn.submits).to.equal(1);
    expect(standIn.state).to.deep.equal({ source: 'contact-page', name: 'Ada Lovelace', email: 'ada@example.test' });
    expect(await postsAtSink()).to.equal(1);
    expect(findPanel()).to.equal(undefined);
  });

  it('the field errors the site redraws reach the agent, one line each, with its alert summary', async () => {
    mountComponent({ outcome: 'errors' });
    await startRuntime();
    const pending = callTool(TOOL, INPUT);
    await clickMiddle(sendButton(await armedPanel()));
    const answer = JSON.parse((await pending).content[0]!.text);
    expect(answer).to.deep.equal({
      status: 'submitted', sentBy: 'site', siteShowed: 'Please check the highlighted fields.',
      fieldErrors: { name: 'The data.name field must be at least 2 characters.' },
    });
    expect(answer).not.to.have.property('httpStatus');
    expect(await postsAtSink()).to.equal(1);
  });

  it('without a redraw within the wait the call answers with the writeId; capell.write.status gives what the site showed later', async () => {
    // The errors redraw keeps the form (and its tool): that the status tool outlives a form the
    // site removed is the registration's part (page-observer.ts, runtime-tools.ts).
    const { standIn } = mountComponent({ outcome: 'errors', holdRedraw: true });
    await startRuntime({ writeWaitMs: 6000 });
    const pending = callTool(TOOL, INPUT);
    await clickMiddle(sendButton(await armedPanel()));
    const answer = JSON.parse((await pending).content[0]!.text);
    expect(answer).to.have.keys(['status', 'sentBy', 'writeId', 'next']);
    expect(answer).to.deep.include({ status: 'submitted', sentBy: 'site' });
    expect(answer.next).to.contain('capell.write.status');
    expect(answer.next).not.to.match(/nothing was sent/i);
    const before = JSON.parse((await callTool('capell.write.status', { writeId: answer.writeId })).content[0]!.text);
    expect(before).to.deep.include({ status: 'submitted', sentBy: 'site', tool: TOOL });
    await until(() => standIn.releaseRedraw !== undefined, 'the site\'s POST');
    standIn.releaseRedraw!();
    let after: Record<string, unknown> = {};
    for (let tries = 0; tries < 100 && after.siteShowed === undefined; tries++) {
      after = JSON.parse((await callTool('capell.write.status', { writeId: answer.writeId })).content[0]!.text);
      if (after.siteShowed === undefined) await sleep(50);
    }
    expect(after).to.deep.equal({
      status: 'submitted', tool: TOOL, sentBy: 'site', siteShowed: 'Please check the highlighted fields.',
      fieldErrors: { name: 'The data.name field must be at least 2 characters.' },
    });
    expect(await postsAtSink()).to.equal(1);
  });
});

describe('site-sent forms: what is refused never reaches the site\'s script', () => {
  it('a page script that changes a wire:model-bound control after the panel showed: the click is refused, nothing is posted', async () => {
    const { form, standIn } = mountComponent();
    await startRuntime();
    const pending = callTool(TOOL, INPUT);
    const section = await armedPanel();
    // As Livewire's x-model effect writes $wire back into the control: no input event, so the panel is not told.
    const name = form.querySelector<HTMLInputElement>(`#${FORM_ID}-name`)!;
    standIn.state.name = 'Eve';
    name.value = 'Eve';
    await clickMiddle(sendButton(section));
    await until(() => textOf(section).includes('That did not count'), 'the refusal');
    expect(textOf(section)).to.contain('what the form sends changed after this panel showed it (Name)');
    expect(standIn.submits).to.equal(0);
    expect(await postsAtSink()).to.equal(0);
    // The panel now shows what the form holds; the proposal stays open until the person cancels.
    expect(textOf(section)).to.contain('Eve');
    await clickMiddle(section.querySelector('button.cancel')!);
    const answer = JSON.parse((await pending).content[0]!.text);
    expect(answer.status).to.equal('cancelled');
    expect(answer.refused).to.contain('what the form sends changed after this panel showed it (Name)');
  });

  it('a window capture listener the page adds after the runtime started, ignoring defaultPrevented, never sees a refused submit; the person\'s accepted click it sees', async () => {
    const { form, standIn } = mountComponent();
    await startRuntime();
    // Added after the runtime started, before the write opened: the runtime's own listener comes first.
    const seen: string[] = [];
    const siteCapture = (event: Event) => seen.push(`${event.type}:${event.isTrusted}`);
    window.addEventListener('submit', siteCapture, true);
    try {
      const pending = callTool(TOOL, INPUT);
      const section = await armedPanel();
      // A script's submit: refused and stopped before the page's listeners.
      form.requestSubmit();
      // A keyboard activation of the form's button (the page focused it): the person's Enter, refused.
      submitButton().focus();
      await sendKeys({ press: 'Enter' });
      await until(() => textOf(section).includes(PAGE_ENTER_REFUSED), 'the Enter refusal');
      // The person's click on it: refused too.
      await clickMiddle(submitButton());
      await until(() => textOf(section).includes(PAGE_CONTROL_REFUSED), 'the click refusal');
      expect(seen).to.deep.equal([]);
      expect(standIn.submits).to.equal(0);
      expect(await postsAtSink()).to.equal(0);
      // The listener works: the person's accepted Send reaches it, and the site's script sends it once.
      await armedPanel();
      await clickMiddle(sendButton(section));
      expect(JSON.parse((await pending).content[0]!.text)).to.deep.include({ status: 'submitted', sentBy: 'site' });
      expect(seen).to.deep.equal(['submit:true']);
      expect(await postsAtSink()).to.equal(1);
    } finally {
      window.removeEventListener('submit', siteCapture, true);
    }
  });

  it('a wire:submit form whose script never took the submit: the click is refused, the browser sends nothing', async () => {
    mountComponent({ standIn: false });
    await startRuntime();
    const pending = callTool(TOOL, INPUT);
    const section = await armedPanel();
    const before = location.href;
    await clickMiddle(sendButton(section));
    await until(() => textOf(section).includes('That did not count'), 'the refusal');
    expect(textOf(section)).to.match(/this site’s own page script did not take the submit, and the browser would have sent it to GET \/\S+, which this panel did not show/);
    expect(location.href).to.equal(before);
    await clickMiddle(section.querySelector('button.cancel')!);
    expect(JSON.parse((await pending).content[0]!.text).status).to.equal('cancelled');
  });
});
