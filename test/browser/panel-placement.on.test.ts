/**
 * Where the confirmation panel stands in form mode (panel/placement.ts through the panel's
 * placeBeside): beside the fields it lists on whichever side has room, else docked above or below
 * them with a height and one page scroll that leave them free, and wholly inside the window, so
 * the consent checks (which need it inside the window) still pass. The demo's contact page at
 * 1280×800 and 390×844 is covered end to end (test/e2e/confirm-panel-placement.on.spec.ts).
 */
// First: it wraps attachShadow before the runtime's primitives take it (closed-root.ts).
import { panelRoot } from './closed-root.ts';
import { expect } from 'chai';
import { setViewport } from '@web/test-runner-commands';
import { createPanelHandle, type ConfirmPanel } from '../../src/panel/capell-confirm-write.ts';
import { readLayoutProblem } from '../../src/panel/placement.ts';

const WORDS = { title: 'Check before sending', intro: 'Review it.', send: 'Send', cancel: 'Cancel', close: 'Close' };
const ITEMS = Array.from({ length: 6 }, (_, index) => ({ label: `Field ${index + 1}`, value: `value ${index + 1}` }));

let panel: ConfirmPanel | undefined;
let page: HTMLElement | undefined;

afterEach(async () => {
  panel?.close('withdrawn');
  panel = undefined;
  page?.remove();
  page = undefined;
  window.scrollTo(0, 0);
  await setViewport({ width: 800, height: 600 });
});

/** A page of `before` px, six fields in a box styled `formStyle`, then `after` px; returns the fields. */
function mountPage(formStyle: string, before: number, after: number): HTMLInputElement[] {
  page = document.createElement('div');
  page.innerHTML = `<div style="height: ${before}px"></div><form style="${formStyle}">${ITEMS.map((item, index) => `<p style="margin: 0 0 12px"><label for="f${index}" style="display: block">${item.label}</label><input id="f${index}" style="display: block; width: 100%; box-sizing: border-box; height: 32px"></p>`).join('')}</form><div style="height: ${after}px"></div>`;
  document.body.append(page);
  return [...page.querySelectorAll('input')];
}

/** Shows a form proposal, places it beside `fields`, and returns the panel's box once it stays put. */
async function placeBeside(fields: HTMLInputElement[]): Promise<DOMRect> {
  const handle = createPanelHandle(document);
  panel = handle;
  expect(await handle.present({ mode: 'form', words: WORDS, items: ITEMS }, { onCancel: () => undefined })).to.equal(true);
  handle.placeBeside(fields);
  const section = panelRoot(handle.element).querySelector('section')!;
  // Until two frames in a row see the same box (the placement settles within a few).
  let last = '';
  for (let frames = 0; frames < 30; frames++) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const box = JSON.stringify(section.getBoundingClientRect());
    if (box === last) break;
    last = box;
  }
  expect(readLayoutProblem(section)).to.equal(undefined);
  return section.getBoundingClientRect();
}

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

function coversNone(box: DOMRect, fields: Element[]): void {
  for (const field of fields) {
    const own = field.getBoundingClientRect();
    expect(overlaps(box, own), `the panel ${JSON.stringify(box)} lies on #${field.id} ${JSON.stringify(own)}`).to.equal(false);
    const label = (field as HTMLInputElement).labels![0]!.getBoundingClientRect();
    expect(overlaps(box, label), `the panel lies on the label of #${field.id}`).to.equal(false);
  }
}

describe('where the panel stands beside a form', () => {
  it('a form on the right of a wide window: the panel stands left of it, and the page scrolls the fields into view', async () => {
    await setViewport({ width: 1000, height: 600 });
    const fields = mountPage('margin-left: 560px; width: 400px', 900, 900);
    const box = await placeBeside(fields);
    coversNone(box, fields);
    expect(box.right).to.be.at.most(fields[0]!.getBoundingClientRect().left);
    for (const field of fields) {
      const own = field.getBoundingClientRect();
      expect(own.top >= 0 && own.bottom <= innerHeight, `#${field.id} in view`).to.equal(true);
    }
  });

  it('a form as wide as a narrow window with page above and below: docked with the fields free, the first of them in view', async () => {
    await setViewport({ width: 390, height: 700 });
    const fields = mountPage('', 900, 900);
    const box = await placeBeside(fields);
    coversNone(box, fields);
    const first = fields[0]!.getBoundingClientRect();
    expect(first.top >= 0 && first.bottom <= innerHeight).to.equal(true);
  });

  it('a form at the top of a page that cannot scroll: docked at the bottom, below the fields', async () => {
    await setViewport({ width: 390, height: 700 });
    const fields = mountPage('', 0, 0);
    const box = await placeBeside(fields);
    coversNone(box, fields);
    expect(box.top).to.be.at.least(fields.at(-1)!.getBoundingClientRect().bottom);
  });
});
