/**
 * A second real agent client: Puppeteer 25's `page.webmcp` (puppeteer-core's WebMCP class over
 * the DevTools WebMCP domain), beside Playwright's in real-client.on.spec.ts. puppeteer-core 25
 * needs Node >= 22.12 and the project runs on Node 20, so it lives in test/clients/puppeteer, whose
 * packages are the clients' folder's (test/clients: its own lockfile and the npm package `node`, a
 * Node 22 binary); npm test installs it with `npm ci --prefix test/clients`. This spec starts the real demo server
 * (demo-fixture.ts) and spawns that Node 22 on test/clients/puppeteer/client.js, which launches
 * the system Chromium itself with WebMCP on, lists and calls the tools of /contact, and prints
 * what it saw as one JSON line; the assertions are here. A second script there,
 * agent-client.js, drives the page with the agent companion (`capell-webmcp/agent`, the built
 * dist/agent) attached to the Puppeteer page.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_WRITE_WAIT_MS } from '../../src/start/config.ts';
import { clientFolder, runClientScript } from './client-script.ts';
import { expect, test } from './demo-fixture.ts';

const CLIENT = clientFolder('puppeteer');
const PUPPETEER = `${CLIENT.modules}puppeteer-core/package.json`;

/** How long after the agent's abort the cancelled call and the closed panel may take, in ms (generous for a loaded machine). */
const ABORT_BOUND_MS = 2_000;

type CallResult = { content: { type: string; text: string }[]; isError?: boolean };
interface Seen { status: 'Completed' | 'Canceled' | 'Error'; output: CallResult | null; errorText: string | null; error: string | null }
interface ClientRun {
  report: { api: string; registered: string[] };
  tools: { name: string; annotations: Record<string, boolean> | null; inputSchema: unknown }[];
  reads: { search: Seen; lookup: Seen };
  bad: { navigationPage: Seen; searchUnknown: Seen; subscribeEmail: Seen };
  write: Seen & { panelShownMs: number; answeredAfterAbortMs: number; panelClosedAfterAbortMs: number; totalMs: number };
}

/** Runs a Puppeteer client script of the folder with `args` (client-script.ts). */
function runScript<T>(script: string, args: string[]): Promise<T> {
  return runClientScript<T>(CLIENT, script, args, `the Puppeteer client ${script}`);
}

/** Runs the Puppeteer client on `url`. */
function runClient(url: string): Promise<ClientRun> {
  return runScript<ClientRun>('client.js', [url]);
}

function text(seen: Seen): string {
  return seen.output?.content[0]?.text ?? '';
}

test.describe('Puppeteer page.webmcp as the agent client', () => {
  // Spawning Node 22 and a Chromium of its own: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);

  test('lists the tools; reads answer; bad input is a Completed invocation whose isError output names the field; an aborted write closes its proposal within its bound', async ({ demo }) => {
    // Not a skip: without the folder's install this client is not tested, and that must show.
    expect(existsSync(CLIENT.node) && existsSync(PUPPETEER), 'test/clients is not installed: run `npm ci --prefix test/clients` (npm test does it itself)').toBe(true);
    demo.subscriptions.length = 0;
    const run = await runClient(`${demo.url}/contact`);

    await test.step('page.webmcp lists every registered tool with its annotations', () => {
      expect(run.report.api).toBe('document.modelContext');
      const byName = new Map(run.tools.map((tool) => [tool.name, tool]));
      for (const name of run.report.registered) expect(byName.has(name), name).toBe(true);
      expect(byName.get('site.search')?.annotations?.readOnly).toBe(true);
      expect(byName.get('capell.write.status')?.annotations?.readOnly).toBe(true);
      expect(byName.get('newsletter.subscribe')?.annotations?.consequential).toBe(true);
      expect(byName.get('site.search')?.inputSchema).toMatchObject({ required: ['q'], additionalProperties: false });
    });

    await test.step('read tools answer', () => {
      expect(run.reads.search.status).toBe('Completed');
      expect(run.reads.search.output?.isError).toBeUndefined();
      const search = JSON.parse(text(run.reads.search)) as { data: { url: string }[] };
      expect(search).toMatchObject({ capellAgentSchema: 1, links: expect.any(Object) });
      expect(search.data.length).toBeGreaterThan(0);
      expect(search.data.length).toBeLessThanOrEqual(10);
      expect(run.reads.lookup.status).toBe('Completed');
      expect(JSON.parse(text(run.reads.lookup))).toMatchObject({ '@context': 'https://schema.org', '@graph': [expect.objectContaining({ '@type': 'WebPage', name: 'Contact', url: `${demo.url}/contact` })] });
    });

    await test.step('bad input is a Completed invocation whose isError output is one line naming the field', () => {
      // The runtime answers every failure as an isError result (src/registry/result.ts): the
      // DevTools domain reports it Completed, with the reason in its output.
      for (const [seen, pattern] of [
        [run.bad.navigationPage, /^invalid input for site\.navigation: page: [^\n]+$/],
        [run.bad.searchUnknown, /^invalid input for site\.search: colour: [^\n]+$/],
        [run.bad.subscribeEmail, /^invalid input for newsletter\.subscribe: email: [^\n]+$/],
      ] as const) {
        expect(seen.status).toBe('Completed');
        expect(seen.error).toBeNull();
        expect(seen.output?.isError).toBe(true);
        expect(text(seen)).toMatch(pattern);
      }
    });

    await test.step('aborting the write cancels the call and closes the proposal at once; nothing is sent', () => {
      expect(run.write.status).toBe('Canceled');
      expect(run.write.answeredAfterAbortMs).toBeLessThan(ABORT_BOUND_MS);
      expect(run.write.panelClosedAfterAbortMs).toBeLessThan(ABORT_BOUND_MS);
      expect(run.write.totalMs).toBeLessThan(DEFAULT_WRITE_WAIT_MS);
      expect(demo.subscriptions).toEqual([]);
    });
  });
});

test.describe('Puppeteer with the agent companion', () => {
  test.setTimeout(90_000);

  test('one call through agent.attach(page) is signed by the companion, verified by the site, and its receipt verified by the agent', async ({ demo }) => {
    expect(existsSync(CLIENT.node) && existsSync(PUPPETEER), 'test/clients is not installed: run `npm ci --prefix test/clients` (npm test does it itself)').toBe(true);
    const before = demo.agentGateLog.length;
    const run = await runScript<{ id: string; result: CallResult; receipts: { tool: string; verified: boolean; reason?: string; nonce: string }[] }>(
      'agent-client.js', [`${demo.url}/contact`, demo.agentKeysUrl],
    );
    expect(run.result.isError, JSON.stringify(run.result)).toBeFalsy();
    expect(JSON.parse(run.result.content[0]!.text)).toEqual({ status: 'accepted' });
    const directory = await (await fetch(demo.agentKeysUrl)).json() as { keys: { kid: string }[] };
    expect(demo.agentGateLog.slice(before)).toEqual([
      expect.objectContaining({ path: '/agent/submit', tool: 'send_message', outcome: 'verified', status: 200, keyid: directory.keys[0]!.kid, agent: demo.agentKeysUrl }),
    ]);
    expect(run.receipts).toEqual([expect.objectContaining({ tool: 'send_message', verified: true })]);
  });

  test('a tab the attached page opens is intercepted from its first request: page-set signature and payment headers never leave, and its calls are signed once attached', async ({ demo }) => {
    expect(existsSync(CLIENT.node) && existsSync(PUPPETEER), 'test/clients is not installed: run `npm ci --prefix test/clients` (npm test does it itself)').toBe(true);
    // A page of the site's own origin whose first act is a call with a signature and a price of its own.
    const undo = demo.servePage('/first-request', `<!doctype html><title>first request</title><script>
      fetch('/agent/submit', {
        method: 'POST', credentials: 'omit', body: JSON.stringify({ id: 'first-request-' + location.search.slice(1), message: 'the tab\\'s first request' }),
        headers: { 'Content-Type': 'application/json', Signature: 'sig1=:cGFnZQ==:', 'Signature-Input': 'sig1=("@authority");keyid="page"', 'crawler-exact-price': 'USD 0.01' },
      }).finally(() => { window.done = true; });
    </script>`);
    try {
      const before = demo.agentGateLog.length;
      const run = await runClientScript<{ result: CallResult; popupResult: CallResult }>(
        CLIENT, 'agent-client.js', [`${demo.url}/contact`, demo.agentKeysUrl], 'the Puppeteer client agent-client.js new-tab', { AGENT_SCENARIO: 'new-tab' },
      );
      expect(JSON.parse(run.result.content[0]!.text)).toEqual({ status: 'accepted' });
      const tabs = demo.agentGateLog.slice(before).filter((entry) => entry.path === '/agent/submit').slice(1, 4);
      expect(tabs).toHaveLength(3);
      for (const entry of tabs) {
        expect(entry).toMatchObject({ outcome: 'refused', status: 403, reason: expect.stringMatching(/^The request is not signed \(no Signature-Input or Signature\)/) });
      }
      expect(JSON.parse(run.popupResult.content[0]!.text)).toEqual({ status: 'accepted' });
    } finally {
      undo();
    }
  });
});
