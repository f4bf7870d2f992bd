/**
 * A page of another site frames the demo's contact page with `allow="tools"` (the demo's own
 * `frame-ancestors 'none'` taken off, as on a site that sends none) and crops it to the form's
 * send control (issue 37, item 3). The framing page is the demo server's `localhost` name, another
 * origin (and site) than its `127.0.0.1`, and a secure context, as WebMCP needs (a framing page on
 * plain http elsewhere leaves the frame no `document.modelContext` at all). No write is proposed there: the form tool and the write
 * endpoint answer with one line naming the framing origin, nothing is filled, no panel opens,
 * nothing is sent; reads still answer. The same page framed by a page of its own origin proposes
 * as usual (the control). The demo server counts every contact POST and newsletter sign-up.
 */
import type { Frame, Page } from '@playwright/test';
import { expect, sharedTabTest as test, type Demo } from './demo-fixture.ts';
import { PROPOSAL } from './agent-calls.ts';

/** The framing site: the demo server under another host name (another origin and site). */
function framerOf(demo: Demo): string {
  return demo.url.replace('127.0.0.1', 'localhost');
}

type Result = { content: { type: string; text: string }[]; isError?: boolean };

/** Serves the demo's contact page without `frame-ancestors` (a site that does not forbid framing). */
async function allowFraming(page: Page, demo: Demo): Promise<void> {
  await page.route(`${demo.url}/contact/plain`, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const csp = (response.headers()['content-security-policy'] ?? '').replace(/;\s*frame-ancestors[^;]*/, '');
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
  });
}

/** A page that frames the contact page, cropped to its send button's corner, with `allow="tools"`. */
function framingPage(demo: Demo): string {
  return `<!doctype html><title>Win a prize</title><p>Click the button to claim your prize.</p>
<div style="width:220px;height:60px;overflow:hidden;position:relative">
  <iframe src="${demo.url}/contact/plain" allow="tools" style="position:absolute;left:0;top:0;width:1000px;height:1600px;border:0"></iframe>
</div>`;
}

/** The contact page's frame once its runtime is ready. */
async function contactFrame(page: Page, demo: Demo): Promise<Frame> {
  await expect.poll(() => page.frames().some((frame) => frame.url().startsWith(`${demo.url}/contact/plain`))).toBe(true);
  const frame = page.frames().find((candidate) => candidate.url().startsWith(`${demo.url}/contact/plain`))!;
  await frame.waitForFunction(() => window.capellWebMCP?.ready !== undefined);
  await frame.evaluate(() => window.capellWebMCP!.ready);
  return frame;
}

/** Runs a tool in `frame` through its document.modelContext, to the end. */
function callIn(frame: Frame, name: string, input: object): Promise<Result> {
  return frame.evaluate(async ({ name, input }) => {
    const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
    const tools = await context.getTools();
    return JSON.parse(await context.executeTool(tools.find((tool) => tool.name === name), input)) as Result;
  }, { name, input });
}

function panelsIn(frame: Frame): Promise<number> {
  return frame.locator('capell-confirm-write').count();
}

test('in a cropped frame of another site, the form write and the write endpoint are refused naming the framing origin; nothing is filled, shown or sent; reads still answer', async ({ page, demo }) => {
  demo.formPosts.length = 0;
  const subscriptions = demo.subscriptions.length;
  await allowFraming(page, demo);
  const stop = demo.servePage('/framing-other-site', framingPage(demo));
  try {
    await page.goto(`${framerOf(demo)}/framing-other-site`);
  } finally {
    stop();
  }
  const frame = await contactFrame(page, demo);
  const reason = `this page is shown in a frame inside a page of ${framerOf(demo)}, where the runtime cannot tell whether the confirmation panel is seen`;

  const form = await callIn(frame, 'form.submit.capell-form-contact', PROPOSAL);
  expect(form.isError).toBe(true);
  expect(form.content[0]!.text).toContain(`form.submit.capell-form-contact: ${reason}`);
  expect(await frame.evaluate(() => ((document.getElementById('capell-form-contact') as HTMLFormElement).elements.namedItem('name') as HTMLInputElement).value)).toBe('');

  const endpoint = await callIn(frame, 'newsletter.subscribe', { email: 'ada@example.test' });
  expect(endpoint.isError).toBe(true);
  expect(endpoint.content[0]!.text).toContain(`newsletter.subscribe: ${reason}`);

  expect(await panelsIn(frame)).toBe(0);
  // The framing page crops the frame to the form's send button and the person clicks what it shows.
  const button = await frame.locator('#capell-form-contact button[type="submit"]').evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { x: box.x, y: box.y };
  });
  await page.locator('iframe').evaluate((iframe, { x, y }) => { iframe.style.left = `${-x}px`; iframe.style.top = `${-y}px`; }, button);
  await page.mouse.click(40, 20);
  expect(demo.formPosts).toEqual([]);
  expect(demo.subscriptions).toHaveLength(subscriptions);

  // Reads are not writes: the page's own read tool still answers in the frame.
  const read = await callIn(frame, 'page.get', {});
  expect(read.isError).toBeFalsy();
});

test('the same page framed by a page of its own origin proposes the write as usual (the control)', async ({ page, demo }) => {
  await allowFraming(page, demo);
  const stop = demo.servePage('/framing-same-origin', framingPage(demo).replace('width:220px;height:60px', 'width:1000px;height:1600px'));
  try {
    await page.goto(`${demo.url}/framing-same-origin`);
    const frame = await contactFrame(page, demo);
    await frame.evaluate(({ input }) => {
      const context = (document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]>; executeTool(tool: unknown, input: object): Promise<string> } }).modelContext;
      void context.getTools().then((tools) => context.executeTool(tools.find((tool) => tool.name === 'form.submit.capell-form-contact'), input));
    }, { input: PROPOSAL });
    await expect.poll(() => panelsIn(frame)).toBe(1);
    await expect.poll(() => frame.evaluate(() => ((document.getElementById('capell-form-contact') as HTMLFormElement).elements.namedItem('name') as HTMLInputElement).value)).toBe(PROPOSAL.name);
  } finally {
    stop();
  }
});
