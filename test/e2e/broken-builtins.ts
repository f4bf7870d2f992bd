/**
 * Pages that broke a built-in before the runtime's script tag ran (a polyfill gone wrong, a
 * hostile or careless theme script): each case is an init script. The runtime must throw nothing
 * into such a page, and `ready` must settle (naming why when nothing could register), so that
 * neither the page nor an agent waiting on it hangs. Shared by the WebMCP on and off specs.
 */
import type { Page } from '@playwright/test';

export interface BrokenBuiltIn {
  name: string;
  /** Runs in the page before any of its scripts. */
  breakIt: () => void;
}

export const BROKEN_BUILTINS: Record<'promiseAll' | 'navigator' | 'customEvent' | 'url' | 'freeze' | 'setTimeout', BrokenBuiltIn> = {
  promiseAll: { name: 'Promise.all throws', breakIt: () => { Promise.all = () => { throw new Error('no Promise.all'); }; } },
  navigator: { name: 'window.navigator is a throwing getter', breakIt: () => { Object.defineProperty(window, 'navigator', { get() { throw new Error('no navigator'); } }); } },
  customEvent: { name: 'CustomEvent is deleted', breakIt: () => { delete (window as { CustomEvent?: unknown }).CustomEvent; } },
  url: { name: 'URL throws', breakIt: () => { (window as { URL: unknown }).URL = function URL() { throw new Error('no URL'); }; } },
  freeze: { name: 'Object.freeze throws', breakIt: () => { Object.freeze = () => { throw new Error('no freeze'); }; } },
  setTimeout: { name: 'setTimeout throws', breakIt: () => { (window as { setTimeout: unknown }).setTimeout = () => { throw new Error('no setTimeout'); }; } },
};

/**
 * Opens `url` with `broken` applied first.
 * @returns the page's uncaught errors and the runtime's console messages, as they accumulate.
 */
export async function openBroken(page: Page, url: string, broken: BrokenBuiltIn): Promise<{ errors: string[]; messages: string[] }> {
  const errors: string[] = [];
  const messages: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.text().includes('capell-webmcp')) messages.push(message.text()); });
  await page.addInitScript(broken.breakIt);
  await page.goto(url);
  return { errors, messages };
}

/** The runtime's `ready` Report once it settles, or `undefined` when the page has no global. */
export function settledReport(page: Page): Promise<{ api: string; registered: string[]; rejected: { name: string; reasons: string[] }[] } | undefined> {
  return page.evaluate(() => window.capellWebMCP?.ready) as never;
}
