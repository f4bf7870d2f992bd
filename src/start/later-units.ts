/**
 * The units start-up code loads later, each a chunk of its own (vite.rooms.ts): every `import()`
 * in start/ of a module outside the entry is one of these loaders, so a browser without WebMCP
 * loads the entry alone. The classic script (`capell-webmcp.iife.js`) is built from the same
 * start code with this module replaced by loaders of the module build's chunks under the same
 * names (vite.classic-script.ts). A loader resolves to the one export its caller needs (so the
 * chunk keeps no other for it): `export const loadX = async () => (await import('…')).x`.
 */

/** `follow`: the registry, the declaration rules and the page observer, loaded where WebMCP exists. */
export const loadRegistry = async () => (await import('../registry/follow.js')).follow;

/** `openInspector`: the inspector (lit), loaded only when asked. */
export const loadInspector = async () => (await import('../inspector/inspector.js')).openInspector;

/** `warnIgnoredOptions`: the check of a second `start()` on a running document, loaded only when that happens, where WebMCP exists. */
export const loadSecondStart = async () => (await import('./second-start.js')).warnIgnoredOptions;
