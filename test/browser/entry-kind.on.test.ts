/**
 * What the site added to a form, told from its markup alone (write/forms/entry-kind.ts), and the
 * plain words the panel names it with: a CSRF token, a hidden field, a honeypot (form-builder's,
 * capell-app/form-builder @ 770cf636 resources/views/livewire/form.blade.php, and the demo's), a
 * field the person cannot see, the send button's own value. The kind changes words only: the
 * entries and their values are the ones the form sends.
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { panelRoot } from './closed-root.ts';
import { expect } from 'chai';
import { readEntryKind } from '../../src/write/forms/entry-kind.ts';
import { readEntryList, type FormEntry } from '../../src/write/forms/entry-list.ts';
import { createPanelHandle, type ConfirmWriteItem } from '../../src/panel/capell-confirm-write.ts';
import { CONFIRM_TEXT_DEFAULTS, panelWords } from '../../src/write/confirm-text.ts';

const TOKEN = 'oncrdBEiybyqmhpFbCmpbrpmzanehAekugbEkDjxdxcClCEipfnaQx';

let form: HTMLFormElement;
const cleanups: (() => void)[] = [];

afterEach(() => {
  form?.remove();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function mountForm(html: string): HTMLFormElement {
  form = document.createElement('form');
  form.id = 'fixture';
  form.action = '/test-fixtures/echo';
  form.method = 'post';
  form.innerHTML = html;
  document.body.append(form);
  return form;
}

/** The kind of each entry the form sends (by entry name) with `submitter`. */
function kinds(submitter: Element | null = null): Record<string, string> {
  const list = readEntryList(form, submitter);
  if ('reason' in list) throw new Error(list.reason);
  return Object.fromEntries(list.entries.map((entry) => [entry.name, readEntryKind(entry) ?? 'field']));
}

describe('entry-kind.ts: what the site added, from the DOM', () => {
  it('names each entry by the first rule that matches its markup', () => {
    const meta = document.createElement('meta');
    meta.name = 'csrf-token';
    meta.content = 'meta-token-value';
    document.head.append(meta);
    cleanups.push(() => meta.remove());
    mountForm(`
      <input type="hidden" name="_token" value="${TOKEN}">
      <input type="hidden" name="authenticity_token" value="rails">
      <input type="hidden" name="nonce" value="meta-token-value">
      <input type="hidden" name="source" value="contact-page">
      <label for="f-name">Your name</label><input id="f-name" name="name" value="Ada">
      <p style="display: none" aria-hidden="true"><label for="f-website">Website</label><input id="f-website" name="website" tabindex="-1" autocomplete="off"></p>
      <input class="hidden" name="company_website" tabindex="-1" autocomplete="off" aria-hidden="true">
      <input name="hp" style="position: absolute; left: -9999px" autocomplete="off">
      <label for="f-gone">Fax</label><input id="f-gone" name="fax" style="display: none">
      <label for="f-tab">Phone</label><input id="f-tab" name="phone" tabindex="-1">
      <button name="action" value="send">Send</button>`);
    expect(kinds(form.querySelector('button'))).to.deep.equal({
      _token: 'token', authenticity_token: 'token', nonce: 'token', source: 'hidden',
      name: 'field', website: 'honeypot', company_website: 'honeypot', hp: 'honeypot', fax: 'unseen',
      // Visible: tabindex="-1" alone does not make a honeypot.
      phone: 'field', action: 'button',
    });
  });

  it('form-builder\'s nameless hidden field and honeypot, as its view writes them (no CSS loaded): hidden and honeypot', () => {
    mountForm(`
      <input type="hidden" wire:model="data.source" id="capell-form-x-source" value="contact-page">
      <input type="text" wire:model="data.company_website" id="capell-form-x-company_website" class="hidden" tabindex="-1" autocomplete="off" aria-hidden="true">`);
    const entries: FormEntry[] = [...form.querySelectorAll('input')].map((control) => ({ name: control.id.slice('capell-form-x-'.length), value: control.value, control }));
    expect(entries.map((entry) => readEntryKind(entry))).to.deep.equal(['hidden', 'honeypot']);
  });
});

describe('the panel names what the site added in plain words', () => {
  async function present(also: ConfirmWriteItem[]): Promise<ShadowRoot> {
    const handle = createPanelHandle(document);
    cleanups.push(() => handle.close('closed'));
    const words = panelWords({ ...CONFIRM_TEXT_DEFAULTS }, 'Use the form’s own button.');
    expect(await handle.present({ mode: 'form', words, items: [{ label: 'Your name', value: 'Ada' }], also }, { onCancel: () => undefined })).to.equal(true);
    return panelRoot(handle.element);
  }

  const textOf = (element: Element | null | undefined) => element?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

  it('a token by its ends, whole in a closed <details>; hidden fields, honeypots, unseen fields and the button\'s value by their words', async () => {
    const root = await present([
      { label: '_token', value: TOKEN, kind: 'token' },
      { label: 'source', value: 'contact-page', kind: 'hidden' },
      { label: 'website', value: '', kind: 'honeypot' },
      { label: 'company_website', value: 'bot was here', kind: 'honeypot' },
      { label: 'fax', value: '', kind: 'unseen' },
      { label: 'action', value: 'send', kind: 'button' },
      { label: 'extra', value: 'x' },
    ]);
    const entries = [...root.querySelectorAll('div.also li.entry')].map(textOf);
    expect(entries).to.deep.equal([
      `a security token the site adds (_token) ${TOKEN.slice(0, 8)}…${TOKEN.slice(-6)} (show all ${TOKEN.length} characters) ${TOKEN}`,
      'a hidden field the site adds: source = contact-page',
      'an anti-spam field, left empty (website)',
      // Not empty: the words do not say it is, and the value shows.
      'an anti-spam field the site hides, not empty: company_website = bot was here',
      'a field not shown on the page: fax = (empty)',
      'the send button’s own value: action = send',
      'extra = x',
    ]);
    const details = root.querySelector('div.also details')!;
    expect(details.hasAttribute('open')).to.equal(false);
    // The whole token is in the panel (its check compares it) but not rendered until opened.
    expect(details.querySelector('.value')!.checkVisibility()).to.equal(false);
    (details as HTMLDetailsElement).open = true;
    expect(details.querySelector('.value')!.checkVisibility()).to.equal(true);
  });

  it('a short value of the site is shown as it is, without a toggle', async () => {
    const root = await present([{ label: '_token', value: 'short-one', kind: 'token' }]);
    expect(textOf(root.querySelector('div.also li.entry'))).to.equal('a security token the site adds (_token): short-one');
    expect(root.querySelector('div.also details')).to.equal(null);
  });
});
