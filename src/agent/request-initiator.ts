/**
 * Who sent a paused request: the agent signs only what a document of the tool's own origin sent
 * with fetch or XHR, as the runtime does, in the CORS mode that a JSON body forces. Read from
 * what the browser itself writes and page script cannot: the `Origin` header (a forbidden header
 * name), `Sec-Fetch-Site` and `Sec-Fetch-Mode` where the DevTools protocol shows them (Chromium
 * 156 adds them after the request stage), the request's resource type, and the origin of the
 * frame the request belongs to (`Page.getFrameTree`).
 */
import type { CDPSessionLike } from './cdp-target.js';

/** Resource types of requests made with fetch or XHR (the DevTools protocol reports the runtime's fetch as either). */
const SCRIPT_REQUEST_TYPES: readonly string[] = ['Fetch', 'XHR'];

/** A request header's value (names compared case-insensitively), or undefined. */
export function requestHeader(headers: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/**
 * Why a paused request is not one the agent signs for `origin`, on what the request itself
 * carries (no protocol call, so it can run before a send is claimed):
 * - its resource type is not fetch or XHR (a navigation, a form post, an image, a beacon);
 * - its `Origin` is another origin (`null` for an opaque one), or missing on a request with a body;
 * - `Sec-Fetch-Site` is not `same-origin`, or `Sec-Fetch-Mode` is `no-cors` or `navigate`, when shown;
 * - its `Content-Type` is not `contentType` exactly (case aside), when one is expected: the agent
 *   never rewrites it, and a no-cors request cannot carry `application/json`.
 * @param request the paused request's method and headers, and its resource type
 * @param origin the tool endpoint's origin, e.g. `https://shop.example`
 * @param contentType the manifest's `endpoint.contentType`, or undefined for a body-less poll
 * @returns the one-line reason, or undefined when nothing speaks against signing
 */
export function requestInitiatorProblem(request: { method: string; headers: Record<string, string>; resourceType?: string }, origin: string, contentType?: string): string | undefined {
  const type = request.resourceType ?? 'unknown';
  if (!SCRIPT_REQUEST_TYPES.includes(type)) return `it is a ${type} request, not one a page's fetch or XHR makes`;
  const sentFrom = requestHeader(request.headers, 'origin');
  if (sentFrom !== undefined && sentFrom !== origin) return `it was sent from ${sentFrom.slice(0, 100)}, not ${origin}`;
  if (sentFrom === undefined && request.method !== 'GET' && request.method !== 'HEAD') return 'it carries no Origin header';
  const site = requestHeader(request.headers, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return `it is ${site.slice(0, 40)} (Sec-Fetch-Site), not same-origin`;
  const mode = requestHeader(request.headers, 'sec-fetch-mode');
  if (mode === 'no-cors' || mode === 'navigate') return `it was sent in ${mode} mode`;
  if (contentType !== undefined) {
    const sent = requestHeader(request.headers, 'content-type');
    if (sent === undefined || sent.trim().toLowerCase() !== contentType.toLowerCase()) {
      return `its Content-Type is ${sent === undefined ? 'missing' : JSON.stringify(sent.slice(0, 80))}, not the manifest's ${contentType} (the agent does not rewrite it)`;
    }
  }
  return undefined;
}

/** A frame of `Page.getFrameTree`, as far as the agent reads it. */
interface FrameTree {
  frame: { id: string; url: string; securityOrigin?: string };
  childFrames?: FrameTree[];
}

/**
 * The origin of the document in the frame `frameId` of the session's page, as the browser knows
 * it (`securityOrigin`; `null` for an opaque origin), or undefined when the frame is not one of
 * the page's (an out-of-process frame, a worker) or the protocol call fails.
 */
export async function frameOriginOf(session: CDPSessionLike, frameId: string | undefined): Promise<string | undefined> {
  if (frameId === undefined) return undefined;
  let tree: FrameTree;
  try {
    ({ frameTree: tree } = await session.send('Page.getFrameTree') as { frameTree: FrameTree });
  } catch {
    return undefined;
  }
  const queue = [tree];
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (next.frame.id === frameId) return next.frame.securityOrigin ?? originOf(next.frame.url);
    queue.push(...(next.childFrames ?? []));
  }
  return undefined;
}

/** The main frame's address of the session's page (`Page.getFrameTree`), as the browser knows it. @throws the protocol's error */
export async function mainFrameURL(session: CDPSessionLike): Promise<string> {
  const { frameTree } = await session.send('Page.getFrameTree') as { frameTree: FrameTree };
  return frameTree.frame.url;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
