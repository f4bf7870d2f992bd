/**
 * Capell's own output as the suite plays it back: the page a Capell theme renders (its agent data,
 * byte for byte as capell-app/frontend's Blade partial writes it) and Core's /agent/v1 answers,
 * each a file of test/fixtures/capell/ (SOURCES.md cites the Capell file and commit of every fact).
 * Used by test/e2e/capell-conformance.on.spec.ts (through Playwright routes) and
 * test/unit/capell-conformance.test.ts (the CLI's `check`).
 */
import { readFileSync } from 'node:fs';

const DIR = new URL('../fixtures/capell/', import.meta.url);

/** The host the fixtures' absolute links and URLs were written for. */
export const FIXTURE_ORIGIN = 'http://127.0.0.1:5173';

/** One recorded answer (answers/index.json). */
export interface CapellAnswer {
  file: string;
  request: { method: string; url: string };
  status: number;
  headers: Record<string, string>;
}

/** Every recorded answer. */
export const CAPELL_ANSWERS: readonly CapellAnswer[] = JSON.parse(readFileSync(new URL('answers/index.json', DIR), 'utf8'));

/** A fixture file's text, exactly as stored. */
export function fixtureText(path: string): string {
  return readFileSync(new URL(path, DIR), 'utf8');
}

/**
 * Requests Laravel's paginator answers like a recorded one: `page=1` (and, on /agent/v1/pages,
 * the `page[number]` that the previous link of page 2 repeats) is the first page, the same answer
 * as without it (SOURCES.md §4.1, "the duplicate-key quirk"). Keyed by path and query as sent.
 */
const SAME_AS: Readonly<Record<string, string>> = {
  '/agent/v1/navigation?page=1': '/agent/v1/navigation',
  '/agent/v1/search?q=boots&page=1': '/agent/v1/search?q=boots',
  '/agent/v1/search?q=trail&page=1': '/agent/v1/search?q=trail',
  '/agent/v1/taxonomies?key=categories&page=1': '/agent/v1/taxonomies?key=categories',
  '/agent/v1/pages?set=commerce.product&page%5Bsize%5D=2&page%5Bnumber%5D=2&page%5Bnumber%5D=1': '/agent/v1/pages?set=commerce.product&page%5Bsize%5D=2',
};

/** A query as the server reads it: `page%5Bsize%5D=2` and `page[size]=2`, `+` and `%20` alike. */
function sameQuery(search: string): string {
  return new URLSearchParams(search).toString();
}

/**
 * The recorded answer to a GET of `path` and `search` (e.g. `/agent/v1/search`, `?q=boots`): the
 * answer of the site as it is (200, 422), else a 404 recorded for exactly that request (an unknown
 * taxonomy key); undefined when none is recorded. The 404 and 429 recorded for a request that has
 * an answer record other states of the site (read API off, rate limit spent) and are not chosen.
 */
export function recordedAnswer(path: string, search: string): CapellAnswer | undefined {
  const asked = `${path}?${sameQuery(search)}`;
  const same = SAME_AS[`${path}${search}`];
  const wanted = same ? `${new URL(same, FIXTURE_ORIGIN).pathname}?${sameQuery(new URL(same, FIXTURE_ORIGIN).search)}` : asked;
  const recorded = (answer: CapellAnswer) => {
    const url = new URL(answer.request.url);
    return `${url.pathname}?${sameQuery(url.search)}` === wanted;
  };
  return CAPELL_ANSWERS.find((answer) => answer.status !== 404 && answer.status !== 429 && recorded(answer))
    ?? CAPELL_ANSWERS.find((answer) => answer.status === 404 && answer.file !== 'not-found-404.txt' && recorded(answer));
}

/**
 * A fixture's body for a site on `origin`: the fixtures' host, written as json_encode writes it
 * (`http:\/\/127.0.0.1:5173`), becomes `origin` written the same way; nothing else changes.
 */
export function onOrigin(body: string, origin: string): string {
  return body.replaceAll(FIXTURE_ORIGIN.replaceAll('/', '\\/'), origin.replaceAll('/', '\\/')).replaceAll(FIXTURE_ORIGIN, origin);
}

/**
 * A whole product page of a Capell site: a theme's head with the runtime's script tag, and at the
 * end of the body Capell's agent data (page-agent-data.html: the page graph island, then Core's
 * tools island, byte for byte as the Blade partial writes them).
 * @param script the runtime's script tag, e.g. `<script type="module" src="/dist/capell-webmcp.js"></script>`.
 */
export function capellProductPage(script: string, origin = FIXTURE_ORIGIN): string {
  const agentData = onOrigin(fixtureText('page-agent-data.html'), origin);
  return `<!doctype html>
<html lang="en">
<head>
    <meta charset="utf-8">
    <title>Trail Boots</title>
    ${script}
</head>
<body>
    <main><h1>Trail Boots</h1><p>Waterproof leather boots for rough trails.</p></main>
${agentData}</body>
</html>
`;
}

/**
 * A page with form-builder's contact form as its Livewire component renders it
 * (form-builder/contact-form.html, capell-app/form-builder @ 770cf636; SOURCES.md): a theme's head
 * with the runtime's script tag, Livewire's injected style (form-builder/livewire-injected-style.html:
 * an idle `[wire:loading]` is `display: none`) and Tailwind's `.hidden` utility the component's
 * honeypot uses; no Livewire client.
 * @param script the runtime's script tag.
 * @param options `withoutNames`: the controls' `name` attributes removed, as form-builder's view
 *   rendered them before 770cf636 (controls tied to their key only by `wire:model` and id).
 */
export function capellFormBuilderPage(script: string, options: { withoutNames?: boolean } = {}): string {
  let form = fixtureText('form-builder/contact-form.html');
  if (options.withoutNames) form = form.replace(/\s+name="[^"]*"/g, '');
  return `<!doctype html>
<html lang="en">
<head>
    <meta charset="utf-8">
    <title>Contact us</title>
    ${script}
${fixtureText('form-builder/livewire-injected-style.html')}
    <style>.hidden { display: none; }</style>
</head>
<body>
    <main>
${form}
    </main>
</body>
</html>
`;
}
