/**
 * Writes are proposed only where the person can be trusted to see the panel: in a top-level
 * document, or in a frame all of whose ancestors are of this document's origin. A page of another
 * site that frames this one (with `allow="tools"`, on a site that sends no `frame-ancestors`) can
 * crop the frame to the form's send control, or cover everything but it, and the person sends a
 * proposal they never saw; the runtime cannot see, from inside the frame, what the top-level page
 * draws over it. So a write call in such a frame is refused before anything is filled or shown
 * (the agent gets the one-line reason; the panel does not open). Reads stay allowed.
 * docs/security.md, "A cropped cross-origin frame".
 */

/**
 * Why no write may be proposed in `view`'s document, or undefined.
 * Every ancestor is checked, not only the top: a same-origin top that frames another site which
 * frames this one crops it just as well. `location.ancestorOrigins` (Chromium, WebKit) lists them
 * nearest first; where it is missing, each parent's `location.origin` is read, which throws for a
 * cross-origin parent. `window.top` cannot be redefined by a page ([LegacyUnforgeable]); `parent`
 * can be shadowed, but only by this document's own script, which is the site's.
 * An ancestor whose origin Chromium hides as "null" (an `<iframe referrerpolicy="no-referrer">`,
 * a sandboxed one) counts as another origin.
 * @param view the window of the document the write would fill or show its panel in.
 * @param origin this document's origin (the runtime's, taken at start), e.g. `https://shop.example`.
 * @returns e.g. `this page is shown in a frame inside a page of https://evil.example, where the
 *   runtime cannot tell whether the confirmation panel is seen; writes are proposed only in a page
 *   of this site's own origin (https://shop.example); nothing was filled or sent`.
 */
export function crossOriginFrameReason(view: Window, origin: string): string | undefined {
  let top: Window | null;
  try {
    top = view.top;
  } catch {
    top = null;
  }
  if (top === view) return undefined;
  const reason = (other: string) => `this page is shown in a frame inside a page of ${other}, where the runtime cannot tell whether the confirmation panel is seen; writes are proposed only in a page of this site's own origin (${origin}), so open it in a tab of its own; nothing was filled or sent`;
  const ancestors = (view.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors) {
    for (let index = 0; index < ancestors.length; index++) {
      const ancestor = ancestors.item(index);
      if (ancestor !== origin) return reason(ancestor ?? 'another origin');
    }
  }
  // Walked as well (ancestorOrigins may be missing, and is a list object a script could wrap).
  let current: Window = view;
  for (let depth = 0; depth < 64 && current !== top; depth++) {
    let parent: Window;
    let parentOrigin: string;
    try {
      parent = current.parent;
      parentOrigin = parent.location.origin;
    } catch {
      return reason('another origin');
    }
    if (parentOrigin !== origin) return reason(parentOrigin);
    if (parent === current) break;
    current = parent;
  }
  if (!top) return reason('another origin');
  return undefined;
}
