/**
 * Interception from the browser's own DevTools session, for a Playwright `BrowserContext` and for
 * the browser of an attached Puppeteer `Page`: a new tab's session is made only after the driver
 * has let the tab run (Playwright's `page` event, Puppeteer's `targetcreated`/`popup`, come after
 * the tab's first requests may have left), and a second client cannot hold a tab that the driver
 * resumes. The browser target's `Fetch` domain pauses the requests of every tab
 * opened after it was enabled, from the first one (Chromium 156: not those of a document loaded
 * before, whose loader was made earlier). So the pages a context already has when the agent
 * attaches intercept on their own sessions, and every later tab is intercepted here: the agent
 * finds the attached page a paused request belongs to by its frame; a request of the agent's
 * context that no attached page holds yet (a new tab) goes out unsigned, without the page's
 * signature and payment headers; a request a page's own session intercepts, or one of another
 * browser context, is left exactly as it is. A page that intercepts on its own session pauses
 * each of its requests there first, and here after (Chromium 156, checked with Puppeteer 25):
 * what its session signed passes here unchanged.
 */
import type { CDPSessionLike } from './cdp-target.js';
import type { LocateRequest } from './network-layer.js';
import { frameOriginOf } from './request-initiator.js';

/** The browser context a DevTools session's target belongs to (`Target.getTargetInfo`), or undefined. */
export async function browserContextOf(session: CDPSessionLike, targetId?: string): Promise<string | undefined> {
  try {
    const { targetInfo } = await session.send('Target.getTargetInfo', targetId === undefined ? {} : { targetId }) as { targetInfo?: { browserContextId?: string } };
    return targetInfo?.browserContextId;
  } catch {
    return undefined;
  }
}

/**
 * The source of requests paused on the browser's session.
 * @param browser the browser target's session (the one that paused the request)
 * @param pages the sessions of the attached pages, now (each asked for its frame tree), and
 *   whether each intercepts on its own session
 * @param isAgentContext whether a browser context id is one of the agent's (a context of an
 *   attached page, or the attached Playwright context)
 * @returns a locator: the attached page whose frame tree holds the request's frame, with that
 *   frame's origin; `'foreign'` when that page intercepts on its own session (it handles the
 *   request), when the frame is of another context, or when it cannot be told; undefined when
 *   the frame is a tab of the agent's context not attached yet
 */
export function browserLocator(browser: CDPSessionLike, pages: () => { session: CDPSessionLike; intercepts: boolean }[], isAgentContext: (contextId: string) => boolean): LocateRequest {
  return async (frameId) => {
    if (frameId === undefined) return 'foreign';
    const found = await Promise.all(pages().map(async ({ session, intercepts }) => ({ page: session, intercepts, origin: await frameOriginOf(session, frameId) })));
    const holder = found.find((candidate) => candidate.origin !== undefined);
    if (holder?.intercepts) return 'foreign';
    if (holder) return { page: holder.page, origin: holder.origin };
    // A tab's main frame has the tab's target id: a new tab of the agent's context is found so.
    const context = await browserContextOf(browser, frameId);
    return context !== undefined && isAgentContext(context) ? undefined : 'foreign';
  };
}
