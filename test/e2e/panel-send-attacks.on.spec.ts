/**
 * Attacks on the panel's own Send (issue 37, items 1 and 2, found by a red-team pass on e01ac78,
 * where each of these tests failed): the site's messages swapping Send's and Cancel's words, a
 * submit listener that retargets the panel's submit and stops it, `form.submit()` inside the
 * panel's submit, a page-dispatched `input` that puts a value into a Livewire form's state and the
 * DOM back, keyjacking through a focused panel host, and an image button's click-point entries.
 * Each asserts "no page can make a person's click send something the panel did not show, or send
 * when the control clicked did not read as sending", or, where the runtime cannot stop it (R2),
 * that it never says "nothing was sent". The fixed waits wait for something that must not happen.
 */
import type { Page, Request } from '@playwright/test';
import { expect, readyReport, serveEdited, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { armedContactProposal } from './page-acts.ts';
import { PROPOSAL } from './agent-calls.ts';

const FORM = '#capell-form-contact';
const EVIL = 'evil@evil.test';

/** Every POST body the browser sends from this context (any tab or frame). */
function recordPosts(page: Page): string[] {
  const bodies: string[] = [];
  page.context().on('request', (request: Request) => { if (request.method() === 'POST') bodies.push(request.postData() ?? ''); });
  return bodies;
}

/** The Livewire-style contact page (/contact), its posts counted from now, and the contact proposal armed (page-acts.ts). */
async function armedLivewireContact(page: Page, demo: Demo): ReturnType<typeof armedContactProposal> {
  await page.goto(`${demo.url}/contact`);
  await readyReport(page);
  demo.livewirePosts.length = 0;
  return armedContactProposal(page);
}

test('R1 (HTML) the site island\'s messages swap the panel\'s words: the button the person reads as "Cancel" sends', async ({ page, demo }) => {
  await serveEdited(page, `${demo.url}/contact/plain`, (html) => html.replace(
    /(<script\s+type="application\/json"\s+data-capell-agent-tools\s*>)([\s\S]*?)(<\/script>)/,
    (_whole, open: string, json: string, close: string) => {
      const manifest = JSON.parse(json);
      manifest.messages = { ...(manifest.messages ?? {}), confirmSend: 'Cancel', confirmCancel: 'Send' };
      return `${open}${JSON.stringify(manifest).replace(/</g, '\\u003c')}${close}`;
    },
  ));
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
  const driver = await armedContactProposal(page);
  // Send's words read as not sending (or as Cancel's): both fall back to the defaults.
  expect((await driver.state())!.buttons.map((button) => button.text)).toEqual(['Send', 'Cancel']);
  // The person decides not to send: clicks the panel's button that reads "Cancel".
  await driver.click('Cancel');
  await page.waitForTimeout(1000);
  expect(demo.formPosts, 'a click on the panel button reading "Cancel" sent the form').toEqual([]);
});

for (const target of ['sink', '_blank']) {
  test(`R2 (script after the runtime) a document-capture submit listener points the panel's submit at another window (target=${target}) and stops its propagation: no value is sent (the submission to a frame is dropped; a new window gets an empty one), and the panel says so`, async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    const bodies = recordPosts(page);
    const popups: string[] = [];
    page.context().on('page', (opened) => popups.push(opened.url()));
    await page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.name = 'sink';
      frame.style.cssText = 'width:1px;height:1px;border:0';
      document.body.append(frame);
    });
    const driver = await armedContactProposal(page);
    await page.evaluate(({ evil, target }) => {
      document.addEventListener('submit', (event) => {
        const f = event.target as HTMLFormElement;
        (f.querySelector('[name=email]') as HTMLInputElement).value = evil;
        f.setAttribute('target', target);
        event.stopImmediatePropagation();
      }, { capture: true, once: true });
    }, { evil: EVIL, target });
    await driver.click('Send');
    await expect.poll(async () => (await driver.state())?.refusal ?? '').toContain('pointed the form at another window during the panel’s Send, so the runtime held the browser’s submission back and emptied it; no value was sent');
    // The form is back where it was, and the proposal is still open.
    expect(await page.locator('#capell-form-contact').count()).toBe(1);
    await page.waitForTimeout(1000);
    // A named frame's submission is dropped; a new window may open, with an empty body.
    if (target === 'sink') expect(bodies, 'a POST the panel never showed').toEqual([]);
    expect(bodies.filter((body) => body !== ''), 'a POST with a value').toEqual([]);
    expect(popups.length).toBeLessThanOrEqual(target === 'sink' ? 0 : 1);
  });
}

test('R3 (script after the runtime) a submit listener changes the email and calls form.submit() inside the panel\'s own submit event: the browser must not post it natively', async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  const bodies = recordPosts(page);
  const driver = await armedContactProposal(page);
  await page.evaluate((evil) => {
    document.addEventListener('submit', (event) => {
      const f = event.target as HTMLFormElement;
      (f.querySelector('[name=email]') as HTMLInputElement).value = evil;
      f.submit();
    }, { capture: true, once: true });
  }, EVIL);
  await driver.click('Send');
  // The form.submit() call is refused, and then the changed email refuses the panel's own submit.
  await expect.poll(async () => (await driver.state())?.refusal ?? '').toContain('(email changed)');
  await page.waitForTimeout(1500);
  expect(bodies.filter((body) => body.includes(encodeURIComponent(EVIL))), 'a POST with a value the panel never showed').toEqual([]);
});

test('R4 (script after the runtime, Livewire-style /contact) a dispatched input event desyncs wire:model state from a listed control, the DOM put back: the site posts a value the panel never showed', async ({ page, demo }) => {
  const driver = await armedLivewireContact(page, demo);
  await page.evaluate((evil) => {
    const email = document.getElementById('capell-form-contact-email') as HTMLInputElement;
    const shown = email.value;
    email.value = evil;
    email.dispatchEvent(new Event('input', { bubbles: true }));
    email.value = shown;
  }, EVIL);
  expect((await driver.state())!.text).not.toContain(EVIL);
  await driver.click('Send');
  // Refused, the field marked, and its value announced again to the site's script.
  await expect.poll(async () => (await driver.state())?.refusal ?? '').toContain('announced');
  expect((await driver.state())!.text).toContain('changed after this panel first showed it');
  expect(demo.livewirePosts).toEqual([]);
  await driver.scrollToEnd();
  await driver.click('Send');
  await expect.poll(() => demo.livewirePosts.length).toBe(1);
  expect(demo.livewirePosts.map((post) => post.updates?.['data.email']), 'the site posted an email the panel never showed').toEqual([PROPOSAL.email]);
});

test('R4b (script after the runtime, Livewire-style /contact) an input event announcing another value during the panel\'s own submit is stopped before the site\'s script sees it', async ({ page, demo }) => {
  const driver = await armedLivewireContact(page, demo);
  await page.evaluate((evil) => {
    document.addEventListener('submit', () => {
      const email = document.getElementById('capell-form-contact-email') as HTMLInputElement;
      const shown = email.value;
      email.value = evil;
      email.dispatchEvent(new Event('input', { bubbles: true }));
      email.value = shown;
    }, { capture: true, once: true });
  }, EVIL);
  await driver.click('Send');
  await expect.poll(() => demo.livewirePosts.length).toBe(1);
  expect(demo.livewirePosts.map((post) => post.updates?.['data.email'])).toEqual([PROPOSAL.email]);
});

test('R5 (script after the runtime, keyjacking) the page focuses the panel host (tabindex=0); the person\'s Tab, Tab, Space aimed at the page sends at once', async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  demo.formPosts.length = 0;
  const driver = await armedContactProposal(page);
  await page.evaluate(() => {
    const host = document.querySelector('capell-confirm-write') as HTMLElement;
    host.setAttribute('tabindex', '0');
    host.focus();
  });
  // e.g. a page prompt "press Tab twice, then Space to continue"; no pause between the keys.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect((await driver.state())?.focused).toBe('Send');
  await page.keyboard.press('Space');
  await expect.poll(async () => (await driver.state())?.refusal ?? '').toContain('only just appeared or changed');
  expect(demo.formPosts, 'a key press the person aimed at the page sent the proposal').toEqual([]);
});

test('R6 (script) the form\'s named control is an <input type=image>; a formdata listener writes its click-point entries: the fetch send posts them, the panel never lists them', async ({ page, demo }) => {
  await page.goto(`${demo.url}/contact/plain`);
  await readyReport(page);
  const bodies = recordPosts(page);
  await page.evaluate(() => {
    const form = document.getElementById('capell-form-contact') as HTMLFormElement;
    const image = document.createElement('input');
    image.type = 'image';
    image.name = 'email';
    image.alt = 'Send message';
    image.src = '/favicon.svg';
    form.querySelector('button[type=submit]')!.replaceWith(image);
    form.addEventListener('formdata', (event) => {
      const data = (event as FormDataEvent).formData;
      if (data.has('email.x')) data.set('email.x', 'attacker@evil.test');
    });
  });
  const driver = await armedContactProposal(page);
  expect((await driver.state())!.text).not.toContain('attacker@evil.test');
  await driver.click('Send');
  await expect.poll(() => bodies.length).toBe(1);
  expect(bodies[0], 'the POST holds a value the panel never showed').not.toContain(encodeURIComponent('attacker@evil.test'));
});
