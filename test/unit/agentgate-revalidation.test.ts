/**
 * The calls' side of the manifest cache's revalidation (src/agentgate/manifest-revalidation.ts):
 * a call waits for every check of its document, the first reason refuses it, and a check that
 * fails refuses too. (End to end, with a forged cached manifest: test/e2e/agentgate.on.spec.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addRevalidationCheck, revalidationRefusal } from '../../src/agentgate/manifest-revalidation.ts';
import type { ToolSpec } from '../../src/declarations/tool-spec.ts';

const spec = { name: 'send_message' } as ToolSpec;
const newDocument = () => ({}) as Document;

describe('manifest revalidation checks', () => {
  it('a document with no manifest from a cached copy answers at once: nothing to wait for', async () => {
    assert.equal(await revalidationRefusal(newDocument(), spec), undefined);
  });

  it('waits for every check of the document; the first reason refuses, checks of other documents do not count', async () => {
    const doc = newDocument();
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    addRevalidationCheck(doc, async () => undefined);
    addRevalidationCheck(doc, async (checked) => { await held; return `${checked.name}: changed`; });
    addRevalidationCheck(newDocument(), async () => 'another document');
    let settled = false;
    const answer = revalidationRefusal(doc, spec).then((reason) => { settled = true; return reason; });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(settled, false);
    release();
    assert.equal(await answer, 'send_message: changed');
  });

  it('a check that fails refuses the call, naming its error', async () => {
    const doc = newDocument();
    addRevalidationCheck(doc, async () => { throw new Error('the $ref checks did not load'); });
    assert.equal(await revalidationRefusal(doc, spec), 'send_message: the site\'s AgentGate manifest could not be compared with the copy this tool was registered from (the $ref checks did not load); nothing was sent');
  });
});
