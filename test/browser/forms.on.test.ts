/**
 * Form filling in real Chromium: what may be filled (controls.ts), how values are set so that
 * framework-controlled inputs see them (fill.ts), that script submits are never consent
 * (submit-guard.ts; its attacks are in submit-guard.on.test.ts), the confirmation panel element, and form tools refusing through the real
 * WebMCP API. Clicking as a person is covered end to end in test/e2e/forms-*.on.spec.ts.
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { findPanel, panelRoot, rootOf } from './closed-root.ts';
import { expect } from 'chai';
import { answerOf } from '../support/answer-of.ts';
import { start, type Runtime } from '../../src/index.ts';
import { planFill, type FillPlan } from '../../src/write/forms/controls.ts';
import { fillControls, restoreControls } from '../../src/write/forms/fill.ts';
import { armSubmitGuard } from '../../src/write/forms/submit-guard.ts';
import { readCSRFHeader } from '../../src/write/csrf-token.ts';
import { createPanelHandle, type CapellConfirmWrite } from '../../src/panel/capell-confirm-write.ts';
import { callTool, mountToolsIsland, registeredNames, unmountIslands } from './fixtures.ts';
import { NEXT_STEPS } from '../../src/write/write-answers.ts';
import { mountControlledCheckbox, mountControlledText } from './controlled-input.ts';

const WORDS = { yes: 'Yes', no: 'No' };

let form: HTMLFormElement;

function mountForm(html: string): HTMLFormElement {
  form = document.createElement('form');
  form.id = 'fixture';
  form.action = '/test-fixtures/echo';
  form.method = 'post';
  form.innerHTML = html;
  document.body.append(form);
  return form;
}

function reasonOf(plan: FillPlan): string {
  return plan.ok ? '(accepted)' : plan.reason;
}

afterEach(() => {
  form?.remove();
  document.querySelectorAll('capell-confirm-write').forEach((panel) => panel.remove());
});

describe('forms: what an agent may fill', () => {
  const refusals: [string, string, Record<string, unknown>, RegExp][] = [
    ['a hidden input', '<input type="hidden" name="_token" value="t">', { _token: 'x' }, /^_token: it is a protected hidden control/],
    ['a password input', '<input type="password" name="pw">', { pw: 'x' }, /^pw: it is a protected password control/],
    ['a file input', '<input type="file" name="cv">', { cv: 'x' }, /^cv: it is a protected file control/],
    ['a submit input', '<input type="submit" name="go" value="Go">', { go: 'x' }, /^go: it is a protected submit control/],
    // HTML leaves image inputs out of form.elements: there is nothing to fill.
    ['an image input', '<input type="image" name="pic" alt="Go">', { pic: 'x' }, /^pic: form #fixture has no control named "pic"$/],
    ['a reset input', '<input type="reset" name="again">', { again: 'x' }, /^again: it is a protected reset control/],
    ['a button input', '<input type="button" name="b" value="B">', { b: 'x' }, /^b: it is a protected button control/],
    ['a <button>', '<button name="send">Send</button>', { send: 'x' }, /^send: a <button> cannot be filled/],
    ['a disabled input', '<input name="name" disabled>', { name: 'x' }, /^name: the control is disabled$/],
    ['an input in a disabled fieldset', '<fieldset disabled><input name="name"></fieldset>', { name: 'x' }, /^name: the control is disabled$/],
    ['a read-only input', '<input name="name" readonly>', { name: 'x' }, /^name: the control is read-only$/],
    ['a CSS-hidden honeypot', '<p style="display:none"><input name="website"></p>', { website: 'x' }, /^website: the control is not visible to the person/],
    ['an aria-hidden honeypot', '<p aria-hidden="true"><input name="website"></p>', { website: 'x' }, /^website: the control is not visible to the person/],
    // Honeypots hidden by each technique the effective-visibility check knows: an agent never
    // writes what the person cannot check.
    ['an off-screen honeypot (left: -9999px)', '<div class="hp" style="position: absolute; left: -9999px"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(off-screen: outside the page's scrollable area \(at x -99\d\d(\.\d)?, y [\d.]+ px\)\); an agent never writes what the person cannot check$/],
    ['an opacity 0 honeypot', '<div class="hp" style="opacity: 0"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(opacity 0 on div\.hp\); an agent never writes what the person cannot check$/],
    ['a honeypot whose opacities multiply below 0.1', '<div style="opacity: 0.3"><p style="opacity: 0.3"><input name="website"></p></div>', { website: 'x' }, /^website: the control is not visible to the person \(opacity 0\.3 on p × 0\.3 on div \(effective 0\.09\)\); an agent never writes what the person cannot check$/],
    ['a clip-path inset(50%) honeypot', '<div class="hp" style="clip-path: inset(50%)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(clipped away by clip-path inset\(50%\) on div\.hp\)/],
    ['a clip-path rect() honeypot (computed as inset(… calc(…)))', '<div class="hp" style="clip-path: rect(0 1px 1px 0)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(clipped away by clip-path inset\(0px calc\(100% - 1px\) calc\(100% - 1px\) 0px\) on div\.hp\)/],
    ['a polygon clip-path honeypot of zero area', '<div class="hp" style="clip-path: polygon(0 0, 0 0, 0 0)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(clipped away by clip-path polygon/],
    ['a url() clip-path honeypot (cannot be checked)', '<div class="hp" style="clip-path: url(#nothing)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(clipped by clip-path url\("#nothing"\) on div\.hp, which the runtime cannot check\)/],
    ['a honeypot in a zero-height wrapper that hides its overflow', '<div class="hp" style="height: 0; overflow: hidden"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(clipped by div\.hp \(overflow hidden, [\d.]+×0 px\)\)/],
    ['a transform: scale(0) honeypot', '<div class="hp" style="transform: scale(0)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(scaled to zero by transform matrix\(0, 0, 0, 0, 0, 0\) on div\.hp\)/],
    ['a scale: 0 honeypot', '<div class="hp" style="scale: 0"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(scaled to zero by scale 0 on div\.hp\)/],
    ['a visibility: hidden honeypot', '<div class="hp" style="visibility: hidden"><p><input name="website"></p></div>', { website: 'x' }, /^website: the control is not visible to the person \(visibility: hidden on div\.hp\)/],
    ['a visually hidden (1 px, clip rect) text input', '<input name="website" style="position: absolute; width: 1px; height: 1px; padding: 0; border: 0; clip: rect(0 0 0 0); overflow: hidden">', { website: 'x' }, /^website: the control is not visible to the person \(its box is 1×1 px, too small to see \(under 4 px\)\)/],
    ['a clip: rect(0 0 0 0) honeypot of normal size', '<div class="hp" style="position: absolute; clip: rect(0px, 0px, 0px, 0px)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(clipped away by clip rect\(0px, 0px, 0px, 0px\) on div\.hp\)/],
    ['a honeypot with the hidden attribute', '<p hidden><input name="website"></p>', { website: 'x' }, /^website: the control is not visible to the person \(hidden by the hidden attribute on p\)/],
    ['an inert honeypot', '<p inert><input name="website"></p>', { website: 'x' }, /^website: the control is not visible to the person \(inert: the inert attribute on p\)/],
    ['a honeypot under content-visibility: hidden', '<div class="hp" style="content-visibility: hidden"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(content-visibility: hidden on div\.hp\)/],
    ['a honeypot in a closed <details>', '<details><summary>More</summary><input name="website"></details>', { website: 'x' }, /^website: the control is not visible to the person \(inside a closed <details> \(details\)\)/],
    ['a filter: opacity(0) honeypot (a09)', '<div class="hp" style="filter: opacity(0)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(opacity 0 \(filter opacity\(0\)\) on div\.hp \(effective 0\)\)/],
    ['a honeypot whose opacity and filter: opacity() multiply below 0.1 (a09)', '<div style="opacity: 0.5"><input name="website" style="filter: opacity(15%)"></div>', { website: 'x' }, /^website: the control is not visible to the person \(opacity 0\.15 \(filter opacity\(0\.15\)\) on the control × 0\.5 on div \(effective 0\.075\)\)/],
    ['a filter: blur(40px) honeypot (a09)', '<input name="website" style="filter: blur(40px)">', { website: 'x' }, /^website: the control is not visible to the person \(blurred beyond reading by filter blur\(40px\) on the control\)/],
    ['a honeypot under blurs that combine beyond 3 px (a09)', '<div class="hp" style="filter: blur(2.5px)"><input name="website" style="filter: blur(2.5px)"></div>', { website: 'x' }, /^website: the control is not visible to the person \(blurred beyond reading by filter blur\(2\.5px\) on the control and blur\(2\.5px\) on div\.hp \(combined 3\.5 px\)\)/],
    ['a filter: url() honeypot (cannot be checked) (a09)', '<div class="hp" style="filter: url(#nothing)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(filtered by filter url\("#nothing"\) on div\.hp, which the runtime cannot check\)/],
    ['a mask-image honeypot (cannot be checked) (a09)', '<input name="website" style="mask-image: linear-gradient(transparent, transparent)">', { website: 'x' }, /^website: the control is not visible to the person \(masked by mask-image linear-gradient\(rgba\(0, 0, 0, 0\), rgba\(0, 0, 0, 0\)\) on the control, which the runtime cannot check\)/],
    ['a honeypot under an ancestor\'s -webkit-mask-image (a09)', '<div class="hp" style="-webkit-mask-image: linear-gradient(black, black)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(masked by mask-image linear-gradient\(rgb\(0, 0, 0\), rgb\(0, 0, 0\)\) on div\.hp, which the runtime cannot check\)/],
    ['a honeypot turned away (rotateY(180deg) with backface-visibility: hidden)', '<input name="website" style="transform: rotateY(180deg); backface-visibility: hidden">', { website: 'x' }, /^website: the control is not visible to the person \(turned away: matrix3d\(-1, .*\) with backface-visibility: hidden on the control\); an agent never writes what the person cannot check$/],
    ['a honeypot in a wrapper turned away in 3-D (preserve-3d)', '<div class="hp" style="transform-style: preserve-3d; transform: rotateX(180deg)"><input name="website" style="backface-visibility: hidden; transform: translateZ(1px)"></div>', { website: 'x' }, /^website: the control is not visible to the person \(turned away: matrix3d\(.*\) with backface-visibility: hidden on the control\)/],
    ['a honeypot under filter: contrast(0) on an ancestor', '<div class="hp" style="filter: contrast(0)"><input name="website"></div>', { website: 'x' }, /^website: the control is not visible to the person \(its colours are flattened to one by filter contrast\(0\) on div\.hp \(0 of the range left\)\)/],
    ['a filter: brightness(0) honeypot', '<input name="website" style="filter: brightness(0)">', { website: 'x' }, /^website: the control is not visible to the person \(its colours are flattened to one by filter brightness\(0\) on the control \(0 of the range left\)\)/],
    ['a filter: invert(0.5) honeypot', '<input name="website" style="filter: invert(0.5)">', { website: 'x' }, /^website: the control is not visible to the person \(its colours are flattened to one by filter invert\(0\.5\) on the control/],
    ['a honeypot whose text-indent pushes its text out of its box', '<input name="website" style="text-indent: -9999px">', { website: 'x' }, /^website: the control is not visible to the person \(its text is pushed out of its box by text-indent -9999px\)/],
    ['a honeypot textarea whose text-indent pushes its text out to the right', '<textarea name="website" style="text-indent: 200%"></textarea>', { website: 'x' }, /^website: the control is not visible to the person \(its text is pushed out of its box by text-indent 200%\)/],
    ['a honeypot under an opaque sibling', '<div style="position: relative"><input name="website"><div class="cover" style="position: absolute; inset: 0; background: white"></div></div>', { website: 'x' }, /^website: the control is not visible to the person \(covered by div\.cover at 9 of 9 points \(hit-testing\)\)/],
    ['a mix-blend-mode honeypot (cannot be checked)', '<div class="hp" style="mix-blend-mode: screen"><input name="website" style="background: white; color: black"></div>', { website: 'x' }, /^website: the control is not visible to the person \(blended by mix-blend-mode: screen on div\.hp, which the runtime cannot check\)/],
    ['a honeypot whose text is coloured like its background', '<input name="website" style="color: rgb(250, 250, 250); background: white">', { website: 'x' }, /^website: the control is not visible to the person \(its text rgb\(250, 250, 250\) has no contrast against rgb\(255, 255, 255\) behind it \(1\.04:1\)\)/],
    ['a honeypot whose text is coloured like an ancestor\'s background (an oklch colour)', '<div class="hp" style="background: oklch(0.5 0.1 150)"><input name="website" style="background: transparent; color: oklch(0.5 0.1 150)"></div>', { website: 'x' }, /^website: the control is not visible to the person \(its text rgb\(\d+, \d+, \d+\) has no contrast against rgb\(\d+, \d+, \d+\) behind it \(1:1\)\)/],
    ['a honeypot with -webkit-text-fill-color: transparent', '<input name="website" style="-webkit-text-fill-color: transparent">', { website: 'x' }, /^website: the control is not visible to the person \(its text is transparent \(-webkit-text-fill-color rgba\(0, 0, 0, 0\)\)\)/],
    ['a honeypot with font-size: 0', '<input name="website" style="font-size: 0">', { website: 'x' }, /^website: the control is not visible to the person \(its text is too small to read \(font-size 0px\)\)/],
    ['a honeypot beyond the start of a scroll container', '<div class="box" style="overflow: auto; height: 50px"><input name="website" style="position: relative; top: -200px"></div>', { website: 'x' }, /^website: the control is not visible to the person \(outside what div\.box can be scrolled to\)/],
    ['a radio group with one member off-screen', '<input type="radio" name="size" value="s" aria-label="S"><span class="hp" style="position: absolute; left: -9999px"><input type="radio" name="size" value="m"></span>', { size: 's' }, /^size: the control is not visible to the person \(off-screen/],
    ['a hidden checkbox whose label is hidden too', '<p style="position: absolute; left: -9999px"><input type="checkbox" name="news" id="news-hp"><label for="news-hp">News</label></p>', { news: true }, /^news: the control is not visible to the person \(off-screen/],
    ['a name with no control', '<input name="name">', { nickname: 'x' }, /^nickname: form #fixture has no control named "nickname"$/],
    ['a select given a label', '<select name="topic"><option value="order">Order question</option></select>', { topic: 'Order question' }, /^topic: "Order question" is the label of an option, not its value \(give "order"\)$/],
    ['a select given an unknown value', '<select name="topic"><option value="order">Order</option><option value="repair">Repair</option></select>', { topic: 'refund' }, /^topic: "refund" is not an option value of the select \(values: "order", "repair"\)$/],
    ['a disabled option', '<select name="topic"><option value="a">A</option><option value="b" disabled>B</option></select>', { topic: 'b' }, /^topic: "b" is not an option value/],
    ['a radio value the group lacks', '<input type="radio" name="size" value="s"><input type="radio" name="size" value="m">', { size: 'xl' }, /^size: "xl" is not a value of the radio group \(values: "s", "m"\)$/],
    ['a checkbox given a string', '<input type="checkbox" name="news" value="yes">', { news: 'yes' }, /^news: a checkbox takes true or false$/],
    ['a checkbox-group value the group lacks', '<input type="checkbox" name="tags" value="a"><input type="checkbox" name="tags" value="b">', { tags: ['c'] }, /^tags: "c" is not a value of the checkbox group/],
    ['two text inputs sharing a name', '<input name="name"><input name="name">', { name: 'x' }, /^name: several controls share this name/],
    ['a text input given a boolean', '<input name="name">', { name: true }, /^name: a text input takes a string$/],
    // The browser sanitises these values on set: the form would hold something else than the panel lists.
    ['a number input given words', '<input type="number" name="qty">', { qty: 'twelve' }, /^qty: the number input would be left empty by "twelve"; give a value it holds as given$/],
    ['a range input given a value above its max', '<input type="range" name="rating" min="0" max="10">', { rating: 500 }, /^rating: the range input would hold "10", not "500" \(min 0, max 10\); give a value it holds as given$/],
    ['a range input given a value off its step', '<input type="range" name="rating" min="0" max="10" step="2">', { rating: 5 }, /^rating: the range input would hold "(4|6)", not "5" \(min 0, max 10, step 2\)/],
    ['a colour input given a colour name', '<input type="color" name="colour">', { colour: 'red' }, /^colour: the color input would hold "#[0-9a-f]{6}", not "red"/],
    ['a colour input given upper-case hex', '<input type="color" name="colour">', { colour: '#FF0000' }, /^colour: the color input would hold "#ff0000", not "#FF0000"/],
    ['a date input given an impossible date', '<input type="date" name="day">', { day: '2024-13-45' }, /^day: the date input would be left empty by "2024-13-45"/],
    ['a time input given words', '<input type="time" name="at">', { at: 'noon' }, /^at: the time input would be left empty by "noon"/],
    ['a datetime-local input given seconds of zero', '<input type="datetime-local" name="at">', { at: '2024-05-01T10:00:00' }, /^at: the datetime-local input would hold "2024-05-01T10:00", not "2024-05-01T10:00:00"/],
    ['a month input given a day', '<input type="month" name="m">', { m: '2024-05-01' }, /^m: the month input would be left empty by "2024-05-01"/],
    ['a week input given a date', '<input type="week" name="w">', { w: '2024-05-01' }, /^w: the week input would be left empty by "2024-05-01"/],
    ['an email input given surrounding spaces', '<input type="email" name="email">', { email: ' ada@example.test ' }, /^email: the email input would hold "ada@example.test", not " ada@example.test "/],
    ['a url input given surrounding spaces', '<input type="url" name="site">', { site: ' https://example.test ' }, /^site: the url input would hold "https:\/\/example.test", not " https:\/\/example.test "/],
    ['a text input given a line break', '<input name="name">', { name: 'Ada\nLovelace' }, /^name: the text input would hold "AdaLovelace", not "Ada\\nLovelace"/],
    ['a textarea given CR LF line breaks', '<textarea name="message"></textarea>', { message: 'a\r\nb' }, /^message: the textarea would hold "a\\nb", not "a\\r\\nb"/],
  ];
  for (const [what, html, input, reason] of refusals) {
    it(`refuses ${what} and changes nothing`, () => {
      const snapshot = (() => { mountForm(html); return form.innerHTML; })();
      const plan = planFill(form, input, WORDS);
      expect(reasonOf(plan)).to.match(reason);
      expect(form.innerHTML).to.equal(snapshot);
    });
  }

  it('refuses a honeypot under a page popover that lets the pointer through, naming the check', () => {
    mountForm('<input name="website">');
    const box = form.querySelector('input')!.getBoundingClientRect();
    const cover = document.createElement('div');
    cover.className = 'pop';
    cover.popover = 'manual';
    cover.style.cssText = `margin: 0; padding: 0; border: 0; pointer-events: none; background: white; position: fixed; left: ${box.left - 4}px; top: ${box.top - 4}px; width: ${box.width + 8}px; height: ${box.height + 8}px`;
    document.body.append(cover);
    cover.showPopover();
    try {
      expect(reasonOf(planFill(form, { website: 'x' }, WORDS))).to.match(/^website: the control is not visible to the person \(covered by div\.pop at 9 of 9 points \(hit-testing\)\)/);
    } finally {
      cover.remove();
    }
  });

  it('fills a field with an opaque icon over one end, and one below the fold (scrolled to for the hit-test and put back)', () => {
    mountForm('<div style="position: relative; width: 300px"><input name="a" style="width: 300px; box-sizing: border-box"><span class="icon" style="position: absolute; right: 2px; top: 2px; width: 16px; height: 16px; background: black"></span></div><div style="height: 3000px"></div><input name="b">');
    const before = window.scrollY;
    const plan = planFill(form, { a: 'x', b: 'y' }, WORDS);
    expect(reasonOf(plan)).to.equal('(accepted)');
    expect(window.scrollY).to.equal(before);
  });

  it('fills text, textarea, number, select, radio group, checkbox and checkbox group, and lists them by label', () => {
    mountForm(`<label for="n">Your name</label><input id="n" name="name">
      <textarea name="message" aria-label="Message"></textarea>
      <input type="number" name="count">
      <select name="topic"><option value="">Choose</option><option value="repair">Repair request</option></select>
      <fieldset><legend>Size</legend><input type="radio" name="size" value="s" id="s" checked><label for="s">Small</label><input type="radio" name="size" value="m" id="m"><label for="m">Medium</label></fieldset>
      <input type="checkbox" name="news" value="yes">
      <input type="checkbox" name="tags" value="a"><input type="checkbox" name="tags" value="b">
      <select name="colours" multiple><option value="red">Red</option><option value="blue">Blue</option></select>`);
    const plan = planFill(form, { name: 'Ada', message: 'Hello', count: 3, topic: 'repair', size: 'm', news: true, tags: ['b'], colours: ['red', 'blue'] }, WORDS);
    if (!plan.ok) throw new Error(plan.reason);
    fillControls(plan.steps);
    const data = new FormData(form);
    expect(Object.fromEntries([...data].filter(([key]) => key !== 'colours'))).to.deep.equal({ name: 'Ada', message: 'Hello', count: '3', topic: 'repair', size: 'm', news: 'yes', tags: 'b' });
    expect(data.getAll('colours')).to.deep.equal(['red', 'blue']);
    expect(plan.proposed.map(({ label, value }) => `${label}=${value}`)).to.deep.equal([
      'Your name=Ada', 'Message=Hello', 'count=3', 'topic=Repair request', 'Size=Medium', 'news=Yes', 'tags=b', 'colours=Red, Blue',
    ]);
  });

  it('accepts values the sanitising controls hold as given, and the form holds exactly what the panel lists', () => {
    mountForm(`<input type="number" name="qty" min="1" max="50"><input type="range" name="rating" min="0" max="10">
      <input type="color" name="colour"><input type="date" name="day"><input type="time" name="at"><input type="datetime-local" name="when">
      <input type="month" name="m"><input type="week" name="w"><input type="email" name="email" multiple><input type="url" name="site">`);
    const input = { qty: '12', rating: 7, colour: '#ff0000', day: '2024-05-01', at: '10:30', when: '2024-05-01T10:30', m: '2024-05', w: '2024-W18', email: 'a@example.test,b@example.test', site: 'https://example.test/' };
    const plan = planFill(form, input, WORDS);
    if (!plan.ok) throw new Error(plan.reason);
    fillControls(plan.steps);
    const held = Object.fromEntries(plan.proposed.map(({ key }) => [key, (form.elements.namedItem(key) as HTMLInputElement).value]));
    expect(Object.fromEntries(plan.proposed.map(({ key, value }) => [key, value]))).to.deep.equal(held);
    expect(held).to.deep.equal({ ...input, rating: '7' });
  });

  const visible: [string, string, Record<string, unknown>][] = [
    ['a control below the fold (it can be scrolled to)', '<div style="height: 3000px"></div><input name="name">', { name: 'Ada' }],
    ['a control scrolled out of view inside a scroll container', '<div style="overflow: auto; height: 40px"><div style="height: 400px"></div><input name="name"></div>', { name: 'Ada' }],
    ['an absolutely positioned control that escapes a static zero-height wrapper', '<div style="height: 0; overflow: hidden"><input name="name" style="position: absolute; top: 0; left: 0"></div>', { name: 'Ada' }],
    ['a half-transparent control (opacity 0.5)', '<div style="opacity: 0.5"><input name="name"></div>', { name: 'Ada' }],
    ['a control under a rounded clip-path', '<div style="clip-path: inset(0 round 8px)"><input name="name"></div>', { name: 'Ada' }],
    ['a control under a clip-path rect() that leaves it whole (computed as inset(… calc(…)))', '<div style="clip-path: rect(0 100% 100% 0)"><input name="name"></div>', { name: 'Ada' }],
    ['a control under a light blur (filter: blur(1px)) and filter: opacity(0.5)', '<div style="filter: blur(1px) opacity(0.5) drop-shadow(1px 1px 2px red)"><input name="name"></div>', { name: 'Ada' }],
    ['a custom checkbox: the input visually hidden, its label visible', '<input type="checkbox" id="news" name="news" style="position: absolute; opacity: 0; width: 1px; height: 1px"><label for="news">Send me news</label>', { news: true }],
  ];
  for (const [what, html, input] of visible) {
    it(`accepts ${what}`, () => {
      mountForm(html);
      expect(reasonOf(planFill(form, input, WORDS))).to.equal('(accepted)');
    });
  }

  it('fires input and change on each filled control, never click', () => {
    mountForm('<input name="name"><input type="checkbox" name="news">');
    const seen: string[] = [];
    for (const type of ['input', 'change', 'click']) form.addEventListener(type, (event) => seen.push(`${type}:${(event.target as HTMLInputElement).name}`));
    const plan = planFill(form, { name: 'Ada', news: true }, WORDS);
    if (!plan.ok) throw new Error(plan.reason);
    fillControls(plan.steps);
    expect(seen).to.deep.equal(['input:name', 'change:name', 'input:news', 'change:news']);
  });
});

describe('forms: framework-controlled inputs', () => {
  it('a React-like controlled input and checkbox take the agent\'s values into their state', async () => {
    mountForm('');
    const name = mountControlledText(form, 'name');
    const news = mountControlledCheckbox(form, 'news');
    const plan = planFill(form, { name: 'Ada', news: true }, WORDS);
    if (!plan.ok) throw new Error(plan.reason);
    fillControls(plan.steps);
    await Promise.resolve();
    await Promise.resolve();
    expect(name.state()).to.equal('Ada');
    expect(name.element.value).to.equal('Ada');
    expect(news.state()).to.equal(true);
    expect(news.element.checked).to.equal(true);
  });

  it('(the fixture is faithful) a plain value assignment plus an input event is lost on re-render', async () => {
    mountForm('');
    const name = mountControlledText(form, 'name');
    name.element.value = 'Ada';
    name.element.dispatchEvent(new Event('input', { bubbles: true }));
    await Promise.resolve();
    await Promise.resolve();
    expect(name.state()).to.equal('');
    expect(name.element.value).to.equal('');
  });

  it('restoring gives back the person\'s values, through the framework too, but keeps a field the person changed since', async () => {
    mountForm('<input name="email" value="mine@example.test">');
    const name = mountControlledText(form, 'name');
    name.element.value = 'Grace';
    const plan = planFill(form, { name: 'Ada', email: 'ada@example.test' }, WORDS);
    if (!plan.ok) throw new Error(plan.reason);
    const records = fillControls(plan.steps);
    (form.elements.namedItem('email') as HTMLInputElement).value = 'typed@example.test';
    restoreControls(records);
    await Promise.resolve();
    await Promise.resolve();
    expect(name.state()).to.equal('Grace');
    expect(name.element.value).to.equal('Grace');
    expect((form.elements.namedItem('email') as HTMLInputElement).value).to.equal('typed@example.test');
  });
});

describe('forms: restoring what the fill really stored', () => {
  it('puts back the person\'s value when the page rewrote the agent\'s value as it was set (read back, not the planned string)', () => {
    mountForm('<input name="code">');
    const code = form.elements.namedItem('code') as HTMLInputElement;
    // The site's own formatter, as a person's typing would trigger it.
    code.addEventListener('input', () => { code.value = code.value.toUpperCase(); });
    code.value = 'MINE';
    const plan = planFill(form, { code: 'abc' }, WORDS);
    if (!plan.ok) throw new Error(plan.reason);
    const records = fillControls(plan.steps);
    expect(code.value).to.equal('ABC');
    expect(records.map(({ next }) => next)).to.deep.equal(['ABC']);
    restoreControls(records);
    expect(code.value).to.equal('MINE');
  });
});

describe('forms: script submits are not consent', () => {
  it('blocks requestSubmit(), button.click() and a dispatched SubmitEvent without calling back', async () => {
    mountForm('<input name="name"><button type="submit">Send</button>');
    const calls: SubmitEvent[] = [];
    const prevented: boolean[] = [];
    const record = (event: Event) => prevented.push(event.defaultPrevented);
    const guard = armSubmitGuard(form);
    guard.connect((event) => calls.push(event));
    window.addEventListener('submit', record);
    try {
      form.requestSubmit();
      form.querySelector('button')!.click();
      form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true }));
    } finally {
      await guard.disarm();
      window.removeEventListener('submit', record);
    }
    expect(calls).to.have.length(0);
    // Prevented and stopped on the window in the capture phase: no listener of the page below it sees them.
    expect(prevented).to.deep.equal([]);
  });
});

describe('forms: a site\'s own submit script', () => {
  it('never sees a script submit the guard refused, even one it would take over itself (preventDefault) and send', async () => {
    mountForm('<input name="name"><button type="submit">Send</button>');
    const siteSends: boolean[] = [];
    // The site's own handler on the form would prevent the native submission and send the data itself.
    form.addEventListener('submit', (event) => { event.preventDefault(); siteSends.push(event.isTrusted); });
    const calls: SubmitEvent[] = [];
    const guard = armSubmitGuard(form);
    guard.connect((event) => calls.push(event));
    try {
      form.requestSubmit();
    } finally {
      await guard.disarm();
    }
    // Not consent, so the call is not told; and the site's handler never ran, so nothing was sent.
    expect(calls).to.have.length(0);
    expect(siteSends).to.deep.equal([]);
  });
});

describe('forms: the CSRF token of write endpoints', () => {
  it('reads the csrf-token meta first, else the URL-decoded XSRF-TOKEN cookie, at the time it is asked', () => {
    document.cookie = 'XSRF-TOKEN=abc%3D%3D; path=/';
    const meta = document.createElement('meta');
    meta.name = 'csrf-token';
    meta.content = 'from-meta';
    try {
      expect(readCSRFHeader(document)).to.deep.equal({ name: 'X-XSRF-TOKEN', value: 'abc==' });
      document.head.append(meta);
      expect(readCSRFHeader(document)).to.deep.equal({ name: 'X-CSRF-TOKEN', value: 'from-meta' });
    } finally {
      meta.remove();
      document.cookie = 'XSRF-TOKEN=; path=/; max-age=0';
    }
    expect(readCSRFHeader(document)).to.equal(undefined);
  });
});

describe('forms: <capell-confirm-write>', () => {
  async function presentPanel(mode: 'form' | 'request', handlers: { onCancel(): void; onSend?(): void }): Promise<CapellConfirmWrite> {
    const handle = createPanelHandle(document);
    const panel = handle.element;
    document.body.append(panel);
    await handle.present({
      mode,
      words: { title: 'Check before sending', intro: 'Review it.', hint: mode === 'form' ? 'Use “Send”.' : undefined, send: 'Send', cancel: 'Cancel', close: 'Close' },
      items: [{ label: 'Name', value: 'Ada' }],
      request: mode === 'request' ? 'POST /orders' : undefined,
    }, handlers);
    return panel;
  }

  it('is a dialog named by its heading that takes focus and cancels on Escape', async () => {
    let cancelled = 0;
    const panel = await presentPanel('form', { onCancel: () => { cancelled += 1; } });
    const root = panelRoot(panel);
    const dialog = root.querySelector('[role="dialog"]') as HTMLElement;
    const heading = root.getElementById(dialog.getAttribute('aria-labelledby')!);
    expect(heading?.textContent).to.equal('Check before sending');
    expect(root.activeElement).to.equal(dialog);
    // Form mode draws its own Send too (issue 37): the page's buttons do not send while it is open.
    expect(root.querySelector('button.send')?.textContent).to.equal('Send');
    dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    expect(cancelled).to.equal(1);
  });

  it('announces itself in a polite live region', async () => {
    const panel = await presentPanel('form', { onCancel: () => undefined });
    const status = panelRoot(panel).querySelector('[role="status"]')!;
    expect(status.getAttribute('aria-live')).to.equal('polite');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(status.textContent).to.contain('Check before sending');
  });

  it('ignores a script-made click on Send', async () => {
    let sent = 0;
    const panel = await presentPanel('request', { onCancel: () => undefined, onSend: () => { sent += 1; } });
    const send = panelRoot(panel).querySelector<HTMLButtonElement>('button.send')!;
    send.click();
    send.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(sent).to.equal(0);
  });

  it('can be themed with custom properties', async () => {
    // Read when the panel is presented (its contrast is checked then).
    document.documentElement.style.setProperty('--capell-confirm-accent', 'rgb(200, 0, 0)');
    try {
      const panel = await presentPanel('request', { onCancel: () => undefined });
      const send = panelRoot(panel).querySelector<HTMLButtonElement>('button.send')!;
      expect(getComputedStyle(send).backgroundColor).to.equal('rgb(200, 0, 0)');
    } finally {
      document.documentElement.style.removeProperty('--capell-confirm-accent');
    }
  });
});

describe('forms: form tools through WebMCP', () => {
  let runtime: Runtime | undefined;

  afterEach(() => {
    runtime?.stop();
    runtime = undefined;
    unmountIslands();
  });

  async function startFormTool(properties: Record<string, unknown>, options: { writeWaitMs?: number } = {}): Promise<void> {
    mountToolsIsland({
      capellAgentSchema: 1,
      tools: [{
        name: 'form.submit.fixture',
        description: 'Fill the fixture form',
        inputSchema: { type: 'object', properties, additionalProperties: false },
        effect: 'write',
        binding: { type: 'form', target: 'fixture' },
      }],
      messages: { confirmTitle: 'Bitte prüfen' },
    });
    runtime = start({ log: 'silent', ...options });
    await runtime.ready;
  }

  it('refuses a hidden field even when the schema lets it through', async () => {
    mountForm('<input type="hidden" name="_token" value="real"><button>Send</button>');
    await startFormTool({ _token: { type: 'string' } });
    const result = await callTool('form.submit.fixture', { _token: 'forged' });
    expect(result).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'cannot fill form #fixture for form.submit.fixture: _token: it is a protected hidden control; an agent never writes it' }] });
    expect((form.elements.namedItem('_token') as HTMLInputElement).value).to.equal('real');
  });

  it('refuses a form whose action is on another origin', async () => {
    mountForm('<input name="name"><button>Send</button>');
    form.action = 'https://elsewhere.example/contact';
    await startFormTool({ name: { type: 'string' } });
    const result = await callTool('form.submit.fixture', { name: 'Ada' });
    expect(result.content[0]!.text).to.equal('form.submit.fixture: form #fixture sends to https://elsewhere.example, not this page\'s origin; only same-origin forms can be filled');
  });

  it('a form with target=_blank is refused: its submission is not this window\'s to hold back; nothing is filled', async () => {
    mountForm('<input name="name" aria-label="Name"><button>Send</button>');
    form.target = '_blank';
    await startFormTool({ name: { type: 'string' } });
    const result = await callTool('form.submit.fixture', { name: 'Ada' });
    expect(result).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'form.submit.fixture: form #fixture submits to target="_blank", another browsing context, where the runtime cannot hold its submission back; only forms that submit in this page can be filled' }] });
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('');
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
  });

  it('a data-agent-tools=none form is refused although a declaration names it, quoting the site\'s reason', async () => {
    mountForm('<input name="name" aria-label="Name"><button>Send</button>');
    form.setAttribute('data-agent-tools', 'none');
    form.setAttribute('data-agent-tools-reason', 'Payments are confirmed by a person only.');
    await startFormTool({ name: { type: 'string' } });
    const result = await callTool('form.submit.fixture', { name: 'Ada' });
    expect(result).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'form.submit.fixture: form #fixture is marked data-agent-tools="none" ("Payments are confirmed by a person only."); an agent never fills it' }] });
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('');
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
  });

  it('says so when the form is not on the page: rejected at registration with the reason, so no call can reach it', async () => {
    await startFormTool({ name: { type: 'string' } });
    const report = await runtime!.ready;
    expect(report.registered).to.deep.equal([]);
    expect(report.rejected).to.deep.equal([{ name: 'form.submit.fixture', source: 'capell-island[0]', reasons: ['form #fixture is not on this page'] }]);
    expect(await registeredNames()).to.not.include('form.submit.fixture');
  });

  it('a second call for a form that is still waiting supersedes it (never both filled), and cancels through the panel', async () => {
    mountForm('<input name="name" aria-label="Name"><button>Send</button>');
    await startFormTool({ name: { type: 'string' } }, { writeWaitMs: 3000 });
    const first = callTool('form.submit.fixture', { name: 'Ada' });
    let cancel: HTMLButtonElement | null | undefined;
    for (let tries = 0; tries < 100 && !cancel; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      cancel = findPanel()?.root.querySelector<HTMLButtonElement>('button.cancel');
    }
    const second = callTool('form.submit.fixture', { name: 'Grace' });
    const superseded = answerOf(await first) as { status: string; supersededBy: string; next: string };
    expect(superseded).to.deep.equal({ status: 'superseded', supersededBy: superseded.supersededBy, next: NEXT_STEPS.superseded });
    expect(superseded.supersededBy).to.match(/^[0-9a-f-]{36}$/);
    let panels: NodeListOf<CapellConfirmWrite> = document.querySelectorAll('capell-confirm-write');
    for (let tries = 0; tries < 100 && !panels[0]?.shadowRoot?.querySelector('button.cancel'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      panels = document.querySelectorAll('capell-confirm-write');
    }
    expect(panels).to.have.length(1);
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('Grace');
    const closed = new Promise<string>((resolve) => document.addEventListener('capell-webmcp:confirm-close', (event) => resolve((event as CustomEvent<{ outcome: string }>).detail.outcome), { once: true }));
    rootOf(panels[0])!.querySelector<HTMLButtonElement>('button.cancel')!.click(); // cancelling needs no consent: it never sends anything
    expect(answerOf(await second)).to.deep.equal({ status: 'cancelled', next: NEXT_STEPS.cancelled });
    expect(await closed).to.equal('cancelled');
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('');
  });

  it('refuses a value the page rewrites as it is set, naming the field, and puts the person\'s values back', async () => {
    mountForm('<input name="name" aria-label="Name"><input name="code" aria-label="Code"><button>Send</button>');
    const code = form.elements.namedItem('code') as HTMLInputElement;
    code.addEventListener('input', () => { code.value = code.value.toUpperCase(); });
    (form.elements.namedItem('name') as HTMLInputElement).value = 'Grace';
    await startFormTool({ name: { type: 'string' }, code: { type: 'string' } });
    const result = await callTool('form.submit.fixture', { name: 'Ada', code: 'abc' });
    expect(result.content[0]!.text).to.equal('cannot fill form #fixture for form.submit.fixture: code: the page changed the value to "ABC" as it was filled, so the form would not send "abc"; nothing was left filled');
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('Grace');
    expect(code.value).to.equal('');
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
  });

  it('refuses a number the number input would not hold, through WebMCP, and fills nothing', async () => {
    mountForm('<input name="name" aria-label="Name"><input type="number" name="qty" aria-label="Quantity"><button>Send</button>');
    await startFormTool({ name: { type: 'string' }, qty: { type: 'string' } });
    const result = await callTool('form.submit.fixture', { name: 'Ada', qty: 'twelve' });
    expect(result.content[0]!.text).to.equal('cannot fill form #fixture for form.submit.fixture: qty: the number input would be left empty by "twelve"; give a value it holds as given');
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('');
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
  });

  it('two calls started together: exactly one panel; the other is superseded and changes nothing', async () => {
    mountForm('<input name="name" aria-label="Name"><button>Send</button>');
    // The page's own default (not the person's typing, which a fill would leave alone).
    (form.elements.namedItem('name') as HTMLInputElement).defaultValue = 'Grace';
    await startFormTool({ name: { type: 'string' } });
    const names = ['Ada', 'Mallory'];
    const calls = names.map((name) => callTool('form.submit.fixture', { name }));
    // WebMCP does not promise which call runs first: the first to settle is the superseded one.
    const { refused, result } = await Promise.race(calls.map((call, index) => call.then((outcome) => ({ refused: index, result: outcome }))));
    expect(answerOf(result)).to.include({ status: 'superseded', next: NEXT_STEPS.superseded });
    let cancel: HTMLButtonElement | null | undefined;
    for (let tries = 0; tries < 100 && !cancel; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      cancel = findPanel()?.root.querySelector<HTMLButtonElement>('button.cancel');
    }
    expect(document.querySelectorAll('capell-confirm-write')).to.have.length(1);
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal(names[1 - refused]);
    cancel!.click();
    expect(answerOf(await calls[1 - refused]!)).to.deep.equal({ status: 'cancelled', next: NEXT_STEPS.cancelled });
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('Grace');
  });

  it('shows the panel with the island\'s messages and resolves aborted when the runtime stops', async () => {
    mountForm('<input name="name" aria-label="Name"><button>Send</button>');
    await startFormTool({ name: { type: 'string' } });
    const pending = callTool('form.submit.fixture', { name: 'Ada' });
    let found: ReturnType<typeof findPanel>;
    for (let tries = 0; tries < 100 && !found?.root.querySelector('h2'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      found = findPanel();
    }
    expect(found?.root.querySelector('h2')?.textContent).to.equal('Bitte prüfen');
    // Placed where page layout cannot reach it (the end of <body>, the top layer), tied to the
    // form by naming it.
    expect(found?.panel.parentElement).to.equal(document.body);
    expect(found?.panel.matches(':popover-open')).to.equal(true);
    expect(found?.root.textContent).to.contain('For the form “#fixture” on this page.');
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('Ada');
    runtime?.stop();
    expect(answerOf(await pending)).to.deep.equal({ status: 'aborted', next: NEXT_STEPS.aborted });
    expect((form.elements.namedItem('name') as HTMLInputElement).value).to.equal('');
    expect(document.querySelector('capell-confirm-write')).to.equal(null);
  });
});
