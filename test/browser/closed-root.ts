/**
 * Test-only way into the panel's closed shadow root. The panel keeps no handle a page script
 * could use (no export, no `shadowRoot`); these browser tests take the path any script that runs
 * before the runtime could take: they wrap `Element.prototype.attachShadow` when this module loads
 * and remember the roots of `<capell-confirm-write>`. So a test imports this module first, before
 * anything that imports the runtime: the runtime takes `attachShadow` when src/start/primitives.ts
 * is evaluated, and a wrapper installed after that never sees the panel's root. (The e2e tests use DevTools'
 * DOM domain instead: test/e2e/panel-driver.ts.) Clicks and keys still come from real input
 * (`@web/test-runner-commands`, Playwright's mouse and keyboard), so they are trusted.
 */
import { sendMouse } from '@web/test-runner-commands';

const roots = new WeakMap<Element, ShadowRoot>();
const attachShadow = Element.prototype.attachShadow;
Element.prototype.attachShadow = function attachAndRemember(this: Element, init: ShadowRootInit): ShadowRoot {
  const root = attachShadow.call(this, init);
  if (this.localName === 'capell-confirm-write') roots.set(this, root);
  return root;
};

/** The closed shadow root of a panel (throws when the panel has none yet). */
export function panelRoot(panel: Element): ShadowRoot {
  const root = roots.get(panel);
  if (!root) throw new Error('the panel has no shadow root yet');
  return root;
}

/** The panel in the document, if any, and its root. */
export function findPanel(): { panel: Element; root: ShadowRoot } | undefined {
  const panel = document.querySelector('capell-confirm-write');
  const root = panel ? roots.get(panel) : undefined;
  return panel && root ? { panel, root } : undefined;
}

/** Clicks the middle of `element` with the real mouse (a trusted click). */
export async function clickMiddle(element: Element): Promise<void> {
  const box = element.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The closed shadow root of a panel, or undefined while it has none (for polling loops). */
export function rootOf(panel: Element | undefined): ShadowRoot | undefined {
  return panel ? roots.get(panel) : undefined;
}
