/**
 * Holding the page's `load` event until the tools are registered. Agent clients read a page's
 * tools at `load` (Playwright MCP snapshots the page then and sees no tool registered later), but
 * the runtime's registry chunk comes by `import()`, which `load` does not wait for. What `load`
 * does wait for is a media element whose delaying-the-load-event flag is set (HTML, "media
 * elements": set when its resource selection starts, cleared once it has data, fails or is given
 * nothing). An `<audio>` element that is never inserted in the page, given an empty MediaStream as
 * its `srcObject`, has no data to wait for and holds `load` until that `srcObject` is cleared.
 * Nothing is added to the page, no request is made and no URL is given (Content-Security-Policy's
 * media-src governs URLs, not a MediaStream), so a strict policy with Trusted Types allows it.
 * Checked in Chromium 156: about 1 ms to hold and 0.2 ms to let go, where a hidden about:blank
 * frame kept loading with `document.open()` took 8–18 ms, most of a small page's start-up.
 */
import { primitives } from './primitives.js';

/**
 * Longest hold of `load`, in ms: a registration that waits for the network (an AgentGate
 * manifest that is slow to answer) must not keep the page's `load` from the page for long.
 */
const MAX_LOAD_HOLD_MS = 1000;

/**
 * Holds `doc`'s `load` event until a task after `until` settles, at most MAX_LOAD_HOLD_MS, with
 * one detached `<audio>` element playing nothing (an empty MediaStream). Does nothing once the
 * document is complete (`load` has come), and holds nothing where a timer cannot be set or the
 * browser has no MediaStream (the tools then register soon after load). Never throws.
 * @param doc the page's document.
 * @param until settles once every tool is registered (the runtime's `ready`: it also settles on
 *   `stop()`).
 */
export function holdLoad(doc: Document, until: Promise<unknown>): void {
  // A page that clobbered or broke one of these built-ins only loses the hold (the catch).
  try {
    const view = doc.defaultView;
    if (doc.readyState === 'complete' || !view) return;
    // Taken now: a script that later replaces the setter cannot keep `load` waiting.
    const setSource = Object.getOwnPropertyDescriptor(view.HTMLMediaElement.prototype, 'srcObject')!.set!;
    const media = doc.createElement('audio');
    const release = () => { try { setSource.call(media, null); } catch { /* already let go */ } };
    // The bound first: where no timer can be set, nothing is held. The realm's setTimeout, taken at
    // start: a script that runs before DOMContentLoaded and replaces it cannot keep `load` waiting.
    primitives.setTimeout(release, MAX_LOAD_HOLD_MS);
    // A task later, so that the ready event (dispatched in `until`'s reactions) comes before load.
    until.then(() => primitives.setTimeout(release)).catch(release);
    setSource.call(media, new view.MediaStream());
  } catch {
    // No hold: the tools still register, soon after load.
  }
}
