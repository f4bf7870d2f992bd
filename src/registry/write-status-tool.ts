/**
 * `capell.write.status`: the runtime's own read-only tool that answers a write's outcome by
 * writeId, for as long as the page lives (a write call waits only a bounded time for the person).
 * Registered by the runtime when at least one write tool registered; not a declaration.
 * Loaded when the first write tool registers; the call loads with the write machinery.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { WebMCPTool } from '../start/host.js';
import { errorResult } from './result.js';

import { WRITE_STATUS_TOOL } from '../shared/registration-rules.js';
import { errorMessage } from '../shared/error-message.js';

/** The tool's name (reserved by registration-rules.ts: a site declaration of it is a duplicate). */
export { WRITE_STATUS_TOOL };

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
