// Demo theme script: reports in the footer what the capell-webmcp runtime registered, counted as
// the /agents page counts it (countTools).
// Loaded as a module before the runtime, so the listener is in place when `ready` fires; if the
// runtime somehow ran first, `window.capellWebMCP.ready` still carries the same report.

/** @type {Record<'en' | 'de', { none: string, registered: (count: number, own: number) => string, rejected: (count: number) => string }>} */
const TEXT = {
  en: {
    none: 'This browser has no WebMCP',
    registered: (count, own) => `WebMCP: ${count} ${count === 1 ? 'tool' : 'tools'} registered${own > 0 ? ` (${own} of them the runtime's own)` : ''}`,
    rejected: (count) => `${count} rejected`,
  },
  de: {
    none: 'Dieser Browser hat kein WebMCP',
    registered: (count, own) => `WebMCP: ${count} ${count === 1 ? 'Werkzeug' : 'Werkzeuge'} registriert${own > 0 ? ` (davon ${own} der Laufzeit eigene)` : ''}`,
    rejected: (count) => `${count} abgelehnt`,
  },
};

/**
 * The tools an agent finds on this page, counted one way for the footer and the /agents page
 * (and as `getTools()` lists them): the Report's `registered` (the page's declarations and the
 * AgentGate manifest's) and the runtime's own tools (e.g. `capell.write.status`), which WebMCP
 * holds but the Report does not list.
 * @param {{ registered?: string[] }} report
 * @returns {Promise<{ names: Set<string>, total: number, own: number }>}
 */
export async function countTools(report) {
  const declared = Array.isArray(report.registered) ? report.registered : [];
  const names = new Set(declared);
  const context = /** @type {any} */ (document).modelContext;
  if (typeof context?.getTools === 'function') {
    for (const tool of await context.getTools()) names.add(tool.name);
  }
  return { names, total: names.size, own: names.size - new Set(declared).size };
}

/**
 * One status line for a runtime report.
 * @param {{ api?: string, registered?: string[], rejected?: unknown[] } | null | undefined} report
 * @returns {Promise<string>}
 */
async function describeReport(report) {
  const text = document.documentElement.lang === 'de' ? TEXT.de : TEXT.en;
  if (!report || report.api === 'none') return text.none;
  const { total, own } = await countTools(report);
  const rejected = Array.isArray(report.rejected) ? report.rejected.length : 0;
  return rejected > 0 ? `${text.registered(total, own)}, ${text.rejected(rejected)}` : text.registered(total, own);
}

/** @param {unknown} report */
async function showReport(report) {
  const status = document.getElementById('agent-status');
  if (status) status.textContent = await describeReport(/** @type {any} */ (report));
}

document.addEventListener('capell-webmcp:ready', (event) => void showReport(/** @type {CustomEvent} */ (event).detail));
// Tools come and go after ready (the AgentGate manifest's, a form rendered later): the line follows.
document.addEventListener('capell-webmcp:change', (event) => void showReport(/** @type {CustomEvent} */ (event).detail));
/** @type {{ ready?: Promise<unknown> } | undefined} */
const runtime = /** @type {any} */ (window).capellWebMCP;
runtime?.ready?.then(showReport, (error) => console.warn('capell-webmcp: ready rejected', error));
