/**
 * The demo's forms work for a person without WebMCP (the runtime registers nothing and stays
 * out of the way): form-builder's Livewire forms, driven by the demo's stand-in for Livewire's
 * client (demo/site/livewire-stand-in.js), and the plain HTML contact form. The person types,
 * picks and clicks with Playwright's keyboard and mouse; the demo server's logs say what arrived.
 */
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

const CONTACT = 'capell-form-contact';
const ENQUIRY = 'capell-form-product-enquiry';

test.describe('without WebMCP, the demo\'s forms work for a person', () => {
  test.beforeEach(async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    page.on('pageerror', (error) => problems.push(error.message));
    (page as unknown as { problems: string[] }).problems = problems;
  });

  test('/contact: a field error is redrawn in place, the person corrects it, and the form is sent; the hidden field goes with it, the honeypot stays empty', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    expect(await readyReport(page)).toMatchObject({ api: 'none', registered: [] });
    demo.livewirePosts.length = 0;
    const before = demo.submissions.length;
    // The honeypot is not shown (Tailwind's `hidden`); "Submitting..." is hidden by Livewire's style.
    await expect(page.locator(`#${CONTACT}-company_website`)).toBeHidden();
    await expect(page.locator(`#${CONTACT} button[type="submit"]`)).toHaveAccessibleName('Submit');
    await page.locator(`#${CONTACT}-name`).fill('A');
    await page.locator(`#${CONTACT}-email`).fill('ada@example.test');
    await page.locator(`#${CONTACT}-topic`).selectOption('repair');
    await page.locator(`#${CONTACT}-message`).fill('My boot sole came off.');
    await page.locator(`#${CONTACT}-newsletter`).check();
    await page.locator(`#${CONTACT} button[type="submit"]`).click();
    await expect(page.locator(`#${CONTACT}-name-error`)).toHaveText('The data.name field must be at least 2 characters.');
    await expect(page.locator(`#${CONTACT}-name`)).toHaveAttribute('aria-invalid', 'true');
    // The summary took the focus, as form-builder's x-init asks.
    await expect(page.locator('.capell-form__error-summary')).toBeFocused();
    expect(demo.livewirePosts).toMatchObject([{ status: 200, outcome: 'invalid', errors: { name: ['The data.name field must be at least 2 characters.'] } }]);
    // The person's other values are still there after the redraw.
    await expect(page.locator(`#${CONTACT}-message`)).toHaveValue('My boot sole came off.');
    await expect(page.locator(`#${CONTACT}-newsletter`)).toBeChecked();

    await page.evaluate(() => { (document.querySelector('[wire\\:id]') as HTMLElement & { kept?: boolean }).kept = true; });
    await page.locator(`#${CONTACT}-name`).click();
    await page.keyboard.press('End');
    await page.keyboard.type('da Lovelace');
    await page.locator(`#${CONTACT} button[type="submit"]`).click();
    await expect(page.locator('.capell-form p[role="status"]')).toHaveText('Form submitted.');
    await expect(page.locator('.capell-form p[role="status"]')).toBeFocused();
    // The component's root is the same element (morphed, not replaced), as Livewire keeps it by its wire:id.
    expect(await page.evaluate(() => (document.querySelector('[wire\\:id]') as HTMLElement & { kept?: boolean }).kept)).toBe(true);
    expect(demo.livewirePosts).toHaveLength(2);
    expect(demo.livewirePosts[1]).toMatchObject({ status: 200, outcome: 'accepted', updates: { 'data.name': 'Ada Lovelace' } });
    expect(demo.submissions.slice(before)).toEqual([{
      lang: 'en', form: CONTACT, name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair', message: 'My boot sole came off.', newsletter: true,
      values: { name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair', message: 'My boot sole came off.', newsletter: true, source: 'contact-page' },
    }]);
    // The site owner reads it.
    await page.goto(`${demo.url}/contact/messages`);
    await expect(page.locator('.received-message').first()).toContainText('capell-form-contact');
    expect((page as unknown as { problems: string[] }).problems).toEqual([]);
  });

  test('/de/kontakt: the German form sends with its own strings', async ({ page, demo }) => {
    await page.goto(`${demo.url}/de/kontakt`);
    await readyReport(page);
    demo.livewirePosts.length = 0;
    await expect(page.locator(`#${CONTACT} button[type="submit"]`)).toHaveAccessibleName('Absenden');
    await page.locator(`#${CONTACT} button[type="submit"]`).click();
    // The browser's own constraint validation stops the empty required form: no submit event, nothing sent.
    expect(await page.locator(`#${CONTACT}-name`).evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true);
    await page.locator(`#${CONTACT}-name`).fill('Grete');
    await page.locator(`#${CONTACT}-email`).fill('grete@example.test');
    await page.locator(`#${CONTACT}-topic`).selectOption('order');
    await page.locator(`#${CONTACT}-message`).fill('Wo ist meine Bestellung?');
    await page.locator(`#${CONTACT} button[type="submit"]`).click();
    await expect(page.locator('.capell-form p[role="status"]')).toHaveText('Formular gesendet.');
    expect(demo.livewirePosts).toMatchObject([{ outcome: 'accepted', updates: { 'data.name': 'Grete', 'data.topic': 'order' } }]);
  });

  test('the enquiry form on the Summit boot\'s page: a number and a select', async ({ page, demo }) => {
    await page.goto(`${demo.url}/products/summit-leather-boot`);
    await readyReport(page);
    demo.livewirePosts.length = 0;
    await page.locator(`#${ENQUIRY}-name`).fill('Ada Lovelace');
    await page.locator(`#${ENQUIRY}-email`).fill('ada@example.test');
    await page.locator(`#${ENQUIRY}-size`).selectOption('43');
    await page.locator(`#${ENQUIRY}-quantity`).fill('12');
    await page.locator(`#${ENQUIRY} button[type="submit"]`).click();
    await expect(page.locator(`#${ENQUIRY}-quantity-error`)).toHaveText('The data.quantity field must not be greater than 10.');
    await page.locator(`#${ENQUIRY}-quantity`).fill('1');
    await page.locator(`#${ENQUIRY} button[type="submit"]`).click();
    await expect(page.locator('.capell-form p[role="status"]')).toHaveText('Form submitted.');
    expect(demo.livewirePosts.map((post) => post.outcome)).toEqual(['invalid', 'accepted']);
    // The first answer's snapshot holds what was sent; the second post carries only what changed since.
    expect(demo.livewirePosts[0]!.updates).toEqual({ 'data.name': 'Ada Lovelace', 'data.email': 'ada@example.test', 'data.size': '43', 'data.quantity': '12' });
    expect(demo.livewirePosts[1]!.updates).toEqual({ 'data.quantity': '1' });
    expect(demo.submissions.at(-1)).toMatchObject({ form: ENQUIRY, values: { name: 'Ada Lovelace', size: '43', quantity: '1', question: null, product: 'CW-1002' } });
    expect((page as unknown as { problems: string[] }).problems).toEqual([]);
  });

  test('a filled honeypot is answered as a success and nothing is stored, as form-builder does', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    demo.livewirePosts.length = 0;
    const before = demo.submissions.length;
    // A bot fills everything it finds, the hidden honeypot included.
    await page.evaluate((formId) => {
      const set = (key: string, value: string) => {
        const control = document.getElementById(`${formId}-${key}`) as HTMLInputElement;
        control.value = value;
        control.dispatchEvent(new Event(control.localName === 'select' ? 'change' : 'input', { bubbles: true }));
      };
      set('name', 'Bot'); set('email', 'bot@example.test'); set('topic', 'other'); set('message', 'Buy now'); set('company_website', 'https://spam.example');
    }, CONTACT);
    await page.locator(`#${CONTACT} button[type="submit"]`).click();
    await expect(page.locator('.capell-form p[role="status"]')).toHaveText('Form submitted.');
    expect(demo.livewirePosts).toMatchObject([{ status: 200, outcome: 'spam', updates: { 'data.company_website': 'https://spam.example' } }]);
    expect(demo.submissions.length).toBe(before);
  });

  test('a wrong CSRF token is refused with 419 and Livewire\'s question; nothing is stored', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact`);
    await readyReport(page);
    demo.livewirePosts.length = 0;
    const before = demo.submissions.length;
    await page.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.setAttribute('content', 'not-the-token'));
    await page.locator(`#${CONTACT}-name`).fill('Ada Lovelace');
    await page.locator(`#${CONTACT}-email`).fill('ada@example.test');
    await page.locator(`#${CONTACT}-topic`).selectOption('repair');
    await page.locator(`#${CONTACT}-message`).fill('Hello');
    const questions: string[] = [];
    page.on('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.locator(`#${CONTACT} button[type="submit"]`).click();
    await expect.poll(() => questions).toEqual(['This page has expired.\nWould you like to refresh the page?']);
    expect(demo.livewirePosts).toMatchObject([{ status: 419, outcome: 'expired' }]);
    expect(demo.submissions.length).toBe(before);
    await expect(page.locator(`#${CONTACT}`)).toHaveCount(1);
  });

  test('/contact/plain: the plain form is sent by the browser and the site answers with its notice', async ({ page, demo }) => {
    await page.goto(`${demo.url}/contact/plain`);
    await readyReport(page);
    demo.formPosts.length = 0;
    demo.livewirePosts.length = 0;
    await page.locator(`#${CONTACT}-name`).fill('Ada Lovelace');
    await page.locator(`#${CONTACT}-email`).fill('ada@example.test');
    await page.locator(`#${CONTACT}-topic`).selectOption('repair');
    await page.locator(`#${CONTACT}-message`).fill('My boot sole came off.');
    await page.locator(`#${CONTACT} button[type="submit"]`).click();
    await page.waitForURL(/\/contact\/plain\?sent=1$/);
    await expect(page.locator('.notice')).toBeVisible();
    expect(demo.formPosts).toEqual([expect.objectContaining({ path: '/contact/plain' })]);
    expect(demo.livewirePosts).toEqual([]);
    expect(demo.submissions.at(-1)).toEqual({ lang: 'en', name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair', message: 'My boot sole came off.', newsletter: false });
  });
});
