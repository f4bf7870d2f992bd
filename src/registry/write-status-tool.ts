/**
 * `capell.write.status`: the runtime's own read-only tool that answers a write's outcome by
 * writeId, for as long as the page lives (a write call waits only a bounded time for the person),
 * and on the next page of this tab for a write whose send navigated the tab (write/tab-writes.ts).
 * Registered by the runtime when the first write tool registers, or when this tab holds such a
 * record (holdsTabWrites); then kept until `stop()`, also after the form tools are gone (a redraw
 * removed their form): the writeIds they gave still need an answer. Not a declaration.
 * The call loads with the write machinery.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { WebMCPTool } from '../start/host.js';
import { errorResult } from './result.js';

import { WRITE_STATUS_TOOL } from '../shared/registration-rules.js';
import { errorMessage } from '../shared/error-message.js';

/** The tool's name (reserved by registration-rules.ts: a site declaration of it is a duplicate). */
export { WRITE_STATUS_TOOL };

/**
 * The sessionStorage key under which a tab keeps the writes whose send navigated it
 * (write/tab-writes.ts keeps the records, write/status/tab-write-answer.ts reads them; the value is
 * `{ "until": ms, "writes": […] }`).
 */
export const TAB_WRITES_KEY = 'capell-webmcp.writes';

/** Longest stored value read, in UTF-16 code units: a larger one (not the runtime's) is ignored. */
export const MAX_TAB_WRITES_LENGTH = 16_384;

/**
 * Whether this tab holds a write record of an earlier page that is not yet too old (its `until`,
 * ms since the epoch, is ahead): then this page registers `capell.write.status` though it may
 * declare no write tool. Kept tiny: it runs with every update until the tool is registered.
 * Never throws (storage refused, a value that is not the runtime's: false).
 */
export function holdsTabWrites(doc: Document): boolean {
  try {
    const raw = doc.defaultView?.sessionStorage.getItem(TAB_WRITES_KEY);
    return !!raw && raw.length <= MAX_TAB_WRITES_LENGTH && (JSON.parse(raw) as { until?: unknown }).until as number > Date.now();
  } catch {
    return false; // storage refused, or a value that is not JSON: nothing kept for this page
  }
}

/**
 * The tool for `registerTool`: input `{ writeId: string, waitMs?: integer 0..writeWaitMs }`,
 * annotated `readOnlyHint: true`. `execute` answers the write's record (write/write-answers.ts,
 * `statusAnswer`), waiting up to `waitMs` ms for a final status; an unknown writeId or a bad input
 * is `isError` with a reason. Never throws.
 * @param stopSignal aborts a waiting status call when the runtime stops.
 */
export function createWriteStatusTool(config: RuntimeConfig, stopSignal: AbortSignal): WebMCPTool {
  return {
    name: WRITE_STATUS_TOOL,
    description: 'The outcome of a write call that answered awaiting_person, by its writeId; waitMs waits for the person\'s decision.',
    inputSchema: {
      type: 'object',
      properties: {
        writeId: { type: 'string', minLength: 1, maxLength: 100, description: 'The writeId the write call answered.' },
        waitMs: { type: 'integer', minimum: 0, maximum: config.writeWaitMs, description: 'Wait up to this many ms for a final status (default 0: answer at once).' },
      },
      required: ['writeId'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    async execute(input, options) {
      try {
        const { callWriteStatus } = await import('../write/status/status-call.js');
        return await callWriteStatus(input, options, config, stopSignal);
      } catch (error) {
        return errorResult(`${WRITE_STATUS_TOOL} could not run: the runtime's write module did not load (${errorMessage(error)})`);
      }
    },
  };
}
