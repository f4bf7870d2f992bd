/**
 * The panel serves the person who checks it (issue 36, item 7), on the demo's contact page as a
 * new user meets it: at 1280×800 and on a 390×844 phone the panel covers none of the fields it
 * lists (it stands beside them, or above or below them with the page scrolled; where the form's
 * own submit button is does not matter: it does not send while the panel is open, issue 37), and
 * the person's click on the panel's own Send sends; on the phone labels stand above values and no
 * word is broken mid-word, while a link with no break opportunity wraps inside the panel (measured
 * with Range client rects inside the closed root); what the site
 * added (a CSRF token, hidden fields, a honeypot) is named in plain words, a long token by its
 * ends with its whole text one click away, while the request still carries it byte for byte.
 * Fields are found by their ids (`capell-form-contact-<key>`) and the site's entries by the
 * form's markup, so the tests hold for the plain form and for form-builder's Livewire markup.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';
import { PROPOSAL, startCall } from './agent-calls.ts';
import { PanelDriver, type Box } from './panel-driver.ts';

/** The keys the agent fills, whose controls are `#capell-form-contact-<key>`. */
const KEYS = Object.keys(PROPOSAL);

/** A link of 140 characters with no break opportunity: it may (and must) wrap anywhere. */
const LONG_LINK = `https://example.test/${'x'.repeat(119)}`;

/** A proposal of ordinary words, some long, for the phone: none may be split. */
const WORDY = {
  ...PROPOSAL,
  name: 'Maximiliane Oberhuber',
  message: 'Unfortunately the waterproofing membrane of my Ridgeline boots delaminated after three weekends; could you arrange a replacement or a repair?',
};

/** The boxes of the listed controls, by key, in viewport CSS px. */
function fieldBoxes(page: Page): Promise<Record<string, Box>> {
  return page.evaluate((keys) => Object.fromEntries(keys.map((key) => {
    const { x, y, width, height } = document.getElementById(`capell-form-contact-${key}`)!.getBoundingClientRect();
    return [key, { x, y, width, height }];
  })), KEYS);
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function inView(box: Box, size: { width: number; height: number }): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
}

/** The POST bodies the page sends from now on (whatever its URL: the form's action or the site's script's). */
function recordPosts(page: Page): string[] {
  const bodies: string[] = [];
  page.on('request', (request) => { if (request.method() === 'POST') bodies.push(request.postData() ?? ''); });
  return bodies;
}

/** The person scrolls the panel to its end and clicks the panel's Send; the demo delivers the message. */
async function personSends(panel: PanelDriver, demo: { submissions: { name: string }[] }, name: string): Promise<void> {
  const before = demo.submissions.length;
  await panel.scrollToEnd();
  await panel.waitArmed();
  await panel.click('Send');
  await expect.poll(() => demo.submissions.length).toBe(before + 1);
  expect(demo.submissions.at(-1)).toMatchObject({ name });
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`the contact form at ${size.width}×${size.height}`, () => {
    let panel: PanelDriver;

    test.beforeEach(async ({ page, demo }) => {
      await page.setViewportSize(size);
      await page.goto(`${demo.url}/contact`);
      await readyReport(page);
      panel = new PanelDriver(page);
    });

    test('the panel covers none of the fields it lists; they are in view with it; the panel\'s Send sends', async ({ page, demo }) => {
      await startCall(page, 'form.submit.capell-form-contact', WORDY);
      await panel.waitArmed();
      const { box } = (await panel.state())!;
      const fields = await fieldBoxes(page);
      for (const [key, field] of Object.entries(fields)) expect(intersects(box, field), `the panel ${JSON.stringify(box)} over ${key} ${JSON.stringify(field)}`).toBe(false);
      expect(inView(box, size)).toBe(true);
      if (size.width >= 1000) {
        // Room beside the form: every field and the panel are in view together.
        for (const [key, field] of Object.entries(fields)) expect(inView(field, size), key).toBe(true);
      } else {
        // On the phone the page is scrolled so that the first field is in view beside the panel.
        expect(inView(fields[KEYS[0]!]!, size)).toBe(true);
      }
      await personSends(panel, demo, WORDY.name);
    });

    test('no word is broken mid-word, only a link too long for a line wraps; on the phone labels stand above values', async ({ page }) => {
      const message = `${WORDY.message} Photos: ${LONG_LINK}`;
      await startCall(page, 'form.submit.capell-form-contact', { ...WORDY, message });
      await panel.waitOpen();
      await panel.waitText(message);
      const layout = (await panel.layout())!;
      expect(layout.items).toHaveLength(KEYS.length);
      expect(layout.brokenWords).toEqual([LONG_LINK]);
      expect(layout.overflowsSideways).toBe(false);
      for (const { label, value } of layout.items) {
        if (size.width < 500) {
          expect(value.y).toBeGreaterThanOrEqual(label.y + label.height - 0.5);
          expect(Math.abs(value.x - label.x)).toBeLessThan(1);
        } else {
          expect(value.x).toBeGreaterThanOrEqual(label.x + label.width);
        }
      }
    });
  });
}

test.describe('what the site added, in plain words', () => {
  test('a CSRF token, hidden fields and a honeypot are named in plain words; a long token shows whole on the person\'s click; the request carries it byte for byte', async ({ page, demo }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    // The plain HTML form: its CSRF token, honeypot and hidden fields are entries of the form it sends
    // (form-builder's Livewire form sends its component state, not these).
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    // What the site added, as its markup says: hidden inputs, and the one control that is neither
    // filled by the agent nor a button (the honeypot).
    const added = await page.evaluate((keys) => {
      const form = document.getElementById('capell-form-contact') as HTMLFormElement;
      const filled = new Set(keys.map((key) => document.getElementById(`capell-form-contact-${key}`)));
      const hidden = [...form.querySelectorAll<HTMLInputElement>('input[type="hidden"][name]')].map((input) => ({ name: input.name, value: input.value }));
      const honeypots = [...form.querySelectorAll<HTMLInputElement>('input[name]:not([type="hidden"]):not([type="submit"])')].filter((input) => !filled.has(input)).map((input) => input.name);
      return { hidden, honeypots };
    }, KEYS);
    const token = added.hidden.find((entry) => entry.name === '_token');
    expect(token, 'the contact form carries Laravel\'s _token').toBeDefined();
    expect(token!.value.length).toBeGreaterThan(24);
    expect(added.honeypots.length).toBeGreaterThan(0);
    const posts = recordPosts(page);

    await startCall(page, 'form.submit.capell-form-contact', PROPOSAL);
    const panel = new PanelDriver(page);
    await panel.waitOpen();
    await panel.waitText('Sent with it:');
    let layout = (await panel.layout())!;
    const short = `${token!.value.slice(0, 8)}…${token!.value.slice(-6)}`;
    expect(layout.renderedText).toContain(`a security token the site adds (_token) ${short} (show all ${token!.value.length} characters)`);
    // The person is not made to read it: the whole token is not on screen.
    expect(layout.renderedText).not.toContain(token!.value);
    for (const { name, value } of added.hidden.filter((entry) => entry.name !== '_token')) {
      expect(layout.renderedText).toContain(`a hidden field the site adds: ${name} = ${value}`);
    }
    for (const name of added.honeypots) expect(layout.renderedText).toContain(`an anti-spam field, left empty (${name})`);

    // The person opens the token with a click on its toggle: the whole value is then on screen.
    const toggle = layout.summaries.find((summary) => summary.text.startsWith(short))!;
    await page.mouse.click(toggle.x, toggle.y);
    await expect.poll(async () => (await panel.layout())!.renderedText).toContain(token!.value);
    layout = (await panel.layout())!;
    expect(layout.renderedText).toContain(`${short} (show all ${token!.value.length} characters) ${token!.value}`);

    await personSends(panel, demo, PROPOSAL.name);
    // What is sent is what is listed: the site's token whole, not its short form. (The browser's
    // request event may reach the test after the demo server took the POST: waited for.)
    await expect.poll(() => posts.some((body) => body.includes(token!.value))).toBe(true);
    expect(posts.some((body) => body.includes('…') || body.includes(encodeURIComponent('…')))).toBe(false);
  });
});
