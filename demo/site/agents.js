// The /agents page's script: which of the listed tools are registered now (live, following
// `capell-webmcp:change`), the tools registered from elsewhere (the AgentGate manifest), and, when
// WebMCP is on, a Run button per read tool that calls it the way an agent does, through
// `document.modelContext.executeTool`, and shows the answer. When WebMCP is off, the page says
// how to turn it on. Loaded after the runtime script, so `window.capellWebMCP` exists.

import { countTools } from './theme.js';

/** @type {Record<'en' | 'de', Record<string, string>>} */
const TEXT = {
  en: {
    on: 'WebMCP is on in this browser ({api}): {count} tools are registered on this page{own}. Try a read tool below.',
    own: ' ({own} of them the runtime\'s own)',
    off: 'WebMCP is off in this browser, so no agent can use these tools here. To turn it on, start Chromium with the flag --enable-features=WebMCPTesting (see “How to try a tool by hand” below).',
    withheld: 'WebMCP is present but withheld here: {reason}.',
    registered: 'registered',
    notRegistered: 'not registered',
    running: 'Running…',
    badInput: 'The input is not JSON: {message}',
    gone: 'This tool is not registered now.',
    failed: 'The call failed: {message}',
    error: 'The tool answered with an error: {text}',
  },
  de: {
    on: 'WebMCP ist in diesem Browser an ({api}): {count} Werkzeuge sind auf dieser Seite angemeldet{own}. Probieren Sie unten ein Lesewerkzeug aus.',
    own: ' (davon {own} der Laufzeit eigene)',
    off: 'WebMCP ist in diesem Browser aus, daher kann hier kein Agent diese Werkzeuge nutzen. Zum Einschalten starten Sie Chromium mit dem Schalter --enable-features=WebMCPTesting (siehe „Ein Werkzeug von Hand ausprobieren“ unten).',
    withheld: 'WebMCP ist vorhanden, hier aber nicht erlaubt: {reason}.',
    registered: 'angemeldet',
    notRegistered: 'nicht angemeldet',
    running: 'Wird ausgeführt…',
    badInput: 'Die Eingabe ist kein JSON: {message}',
    gone: 'Dieses Werkzeug ist gerade nicht angemeldet.',
    failed: 'Der Aufruf ist fehlgeschlagen: {message}',
    error: 'Das Werkzeug hat mit einem Fehler geantwortet: {text}',
  },
};

const words = document.documentElement.lang === 'de' ? TEXT.de : TEXT.en;

/** @param {string} template @param {Record<string, string | number>} values */
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));

/** @typedef {{ name: string, description: string }} HostTool */
/** @typedef {{ getTools(): Promise<HostTool[]>, executeTool(tool: HostTool, input: unknown): Promise<string> }} ModelContext */

/** @returns {ModelContext | undefined} */
const modelContext = () => /** @type {any} */ (document).modelContext;

const list = /** @type {HTMLUListElement} */ (document.querySelector('.agent-tools'));

/** Adds a tool registered from elsewhere (not in this page's island), e.g. AgentGate's send_message. */
function addListed(/** @type {HostTool} */ tool) {
  const item = document.createElement('li');
  item.className = 'agent-tool';
  item.dataset.tool = tool.name;
  item.dataset.effect = 'other';
  const heading = document.createElement('h3');
  const code = document.createElement('code');
  code.textContent = tool.name;
  const state = document.createElement('span');
  state.className = 'live-state';
  heading.append(code, ' ', state);
  const description = document.createElement('p');
  description.textContent = tool.description;
  item.append(heading, description);
  list.append(item);
}

/** Shows a Report: the WebMCP line, each tool's live state, and the Run buttons where WebMCP is on. */
async function show(/** @type {{ api: string, apiReason?: string, registered: string[] }} */ report) {
  const line = /** @type {HTMLElement} */ (document.getElementById('agents-webmcp'));
  const on = report.api !== 'none';
  if (!on) line.textContent = report.apiReason ? fill(words.withheld, { reason: report.apiReason }) : words.off;
  line.dataset.webmcp = on ? 'on' : 'off';
  const context = modelContext();
  // What WebMCP holds: the Report's tools and the runtime's own (e.g. agentgate.receipts), which
  // the Report does not list; counted as the footer counts them (theme.js).
  const { names: live, total, own } = await countTools(report);
  if (on && context) {
    for (const tool of await context.getTools()) {
      if (!list.querySelector(`[data-tool="${CSS.escape(tool.name)}"]`)) addListed(tool);
    }
  }
  if (on) line.textContent = fill(words.on, { api: report.api, count: total, own: own > 0 ? fill(words.own, { own }) : '' });
  for (const item of list.querySelectorAll('.agent-tool')) {
    const registered = live.has(/** @type {string} */ (item.getAttribute('data-tool')));
    const state = item.querySelector('.live-state');
    if (state) state.textContent = on ? `· ${registered ? words.registered : words.notRegistered}` : '';
    const tryIt = /** @type {HTMLElement | null} */ (item.querySelector('.try'));
    if (tryIt) tryIt.hidden = !(on && registered);
  }
}

/** Runs one read tool with the input in its box, as an agent does, and shows the answer. */
async function run(/** @type {HTMLElement} */ item) {
  const name = /** @type {string} */ (item.dataset.tool);
  const answer = /** @type {HTMLElement} */ (item.querySelector('.try-answer'));
  const box = /** @type {HTMLTextAreaElement} */ (item.querySelector('.try-input'));
  let input;
  try {
    input = JSON.parse(box.value || '{}');
  } catch (error) {
    answer.textContent = fill(words.badInput, { message: /** @type {Error} */ (error).message });
    return;
  }
  const context = modelContext();
  const tool = (await context?.getTools())?.find((candidate) => candidate.name === name);
  if (!context || !tool) {
    answer.textContent = words.gone;
    return;
  }
  answer.textContent = words.running;
  try {
    const result = JSON.parse(await context.executeTool(tool, input));
    const text = result?.content?.[0]?.text ?? '';
    if (result?.isError) {
      answer.textContent = fill(words.error, { text });
      answer.dataset.outcome = 'error';
      return;
    }
    let shown = text;
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: shown as it came.
    }
    answer.textContent = shown;
    answer.dataset.outcome = 'ok';
  } catch (error) {
    answer.textContent = fill(words.failed, { message: /** @type {Error} */ (error).message });
    answer.dataset.outcome = 'error';
  }
}

list.addEventListener('click', (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('.try-run');
  const item = /** @type {HTMLElement | null} */ (button?.closest('.agent-tool') ?? null);
  if (item) void run(item);
});

document.addEventListener('capell-webmcp:change', (event) => void show(/** @type {CustomEvent} */ (event).detail));
/** @type {any} */ (window).capellWebMCP?.ready.then(show);
