// Demo theme script: reports in the footer what the capell-webmcp runtime registered.
// Loaded as a module before the runtime, so the listener is in place when `ready` fires; if the
// runtime somehow ran first, `window.capellWebMCP.ready` still carries the same report.

/** @type {Record<'en' | 'de', { none: string, registered: (count: number) => string, rejected: (count: number) => string }>} */
const TEXT = {
  en: {
    none: 'This browser has no WebMCP',
    registered: (count) => `WebMCP: ${count} ${count === 1 ? 'tool' : 'tools'} registered`,
    rejected: (count) => `${count} rejected`,
  },
  de: {
    none: 'Dieser Browser hat kein WebMCP',
    registered: (count) => `WebMCP: ${count} ${count === 1 ? 'Werkzeug' : 'Werkzeuge'} registriert`,
    rejected: (count) => `${count} abgelehnt`,
  },
};

/**
 * One status line for a runtime report.
 * @param {{ api?: string, registered?: string[], rejected?: unknown[] } | null | undefined} report
 * @returns {string}
 */
function describeReport(report) {
  const text = document.documentElement.lang === 'de' ? TEXT.de : TEXT.en;
  if (!report || report.api === 'none') return text.none;
  const registered = Array.isArray(report.registered) ? report.registered.length : 0;
  const rejected = Array.isArray(report.rejected) ? report.rejected.length : 0;
  return rejected > 0 ? `${text.registered(registered)}, ${text.rejected(rejected)}` : text.registered(registered);
}

/** @param {unknown} report */
function showReport(report) {
  const status = document.getElementById('agent-status');
  if (status) status.textContent = describeReport(/** @type {any} */ (report));
}

document.addEventListener('capell-webmcp:ready', (event) => showReport(/** @type {CustomEvent} */ (event).detail));
/** @type {{ ready?: Promise<unknown> } | undefined} */
const runtime = /** @type {any} */ (window).capellWebMCP;
runtime?.ready?.then(showReport, (error) => console.warn('capell-webmcp: ready rejected', error));
