/**
 * Holding the page's `load` event until the tools are registered. Agent clients read a page's
 * tools at `load` (Playwright MCP snapshots the page then and sees no tool registered later), but
 * the runtime's registry chunk comes by `import()`, which `load` does not wait for. What `load`
 * does wait for is every child frame's document to finish loading (HTML, "the end": the load
 * event waits while a child navigable's document is not completely loaded): a hidden about:blank
 * frame whose document was opened (`document.open()`) and not closed stays loading until it is
 * removed. Checked in Chromium 156; no request is made and no markup written, so a strict
 * Content-Security-Policy with Trusted Types allows it.
 */
/**
 * Longest hold of `load`, in ms: a registration that waits for the network (an AgentGate
 * manifest that is slow to answer) must not keep the page's `load` from the page for long.
 */
const MAX_LOAD_HOLD_MS = 1000;

/**
 * Holds `doc`'s `load` event until a task after `until` settles, at most MAX_LOAD_HOLD_MS, with
 * one hidden iframe appended to the root element and removed then. Does nothing once the document
 * is complete (`load` has come), and holds nothing where a timer cannot be set or a frame cannot
 * be added (a page that broke those built-ins). Never throws.
 * @param doc the page's document.
 * @param until settles once every tool is registered (the runtime's `ready`: it also settles on
 *   `stop()`).
 */
export function holdLoad(doc: Document, until: Promise<unknown>): void {
  // A page that clobbered or broke one of these built-ins only loses the hold (the catch).
  try {
    if (doc.readyState === 'complete') return;
    let frame: HTMLIFrameElement | undefined;
    const release = () => frame?.remove();
    // The bound first: where no timer can be set, nothing is held.
    setTimeout(release, MAX_LOAD_HOLD_MS);
    // A task later, so that the ready event (dispatched in `until`'s reactions) comes before load.
    until.then(() => setTimeout(release)).catch(release);
    frame = doc.createElement('iframe');
    frame.hidden = true;
    doc.documentElement.append(frame);
    frame.contentDocument!.open();
  } catch {
    // No hold: the tools still register, soon after load.
  }
}
