/**
 * The `admin-invoke` binding, effect read: one `POST /admin/agent/v1/tools/invoke` with
 * `{ tool, payload }` (admin-invoke.ts), and the agent gets Capell's `data` at once, which the call
 * checks against the tool's `outputSchema` (Capell's admin outputSchemas describe `data`, not the
 * envelope: capell-app/capell `packages/admin/src/Support/Agent/*Tool.php`,
 * test/fixtures/capell/admin/SOURCES.md §2; what only an `additionalProperties: false` forbids,
 * such as the term read's `taxonomy`, is left out: call/check-output.ts). Nothing of the envelope beside `data` reaches the
 * agent; an answer that asks for a confirmation is refused, its token dropped unread.
 */
import type { BindingExecutor } from '../shared/bindings/binding-executor.js';
import { ADMIN_INVOKE_PATH, invokeRefusal, postInvoke } from './admin-invoke.js';

/**
 * Runs an admin read (Capell admin: a read tool is authorised and executed in the same request,
 * `AgentAdminToolInvocationService.php` @2c15f27).
 * @returns `{ ok: true, answer: data, data }` for HTTP 200 with `ok: true, mode: "executed"`;
 *   else `ok: false` with one line: `<tool>: HTTP <status> from /admin/agent/v1/tools/invoke:
 *   <Capell's message>` (403 not allowed, 404 not in the session's site, 422 invalid payload,
 *   419 CSRF, 401 signed out, 500 unknown tool), request.ts' reason when no answer came, or why
 *   the answer is not an executed read (a `confirmation_required` answer: the admin treats the tool
 *   as a write, and the runtime confirms only tools the registry declares write). Never throws.
 */
export const executeAdminRead: BindingExecutor = async (spec, input, { config, signal }) => {
  const sent = await postInvoke(config, { tool: spec.binding.target, payload: input }, signal);
  if ('reason' in sent) return { ok: false, reason: `${spec.name}: ${sent.reason}` };
  const { status, envelope, message } = sent;
  if (status !== 200) return { ok: false, reason: invokeRefusal(spec.name, status, message) };
  if (!envelope) return { ok: false, reason: `${spec.name}: the answer from ${ADMIN_INVOKE_PATH} is not Capell's invoke result ({ ok, mode, tool, data })` };
  if (envelope.mode === 'confirmation_required' || envelope.confirmationToken !== undefined) {
    return { ok: false, reason: `${spec.name}: the admin asked for the editor's confirmation (mode confirmation_required), but the admin registry declares this tool read; nothing was changed, and the runtime asks the editor only for tools declared write` };
  }
  if (!envelope.ok || envelope.mode !== 'executed') {
    return { ok: false, reason: `${spec.name}: the admin answered mode ${JSON.stringify(envelope.mode)}${message ? `: ${message}` : ''}` };
  }
  return { ok: true, answer: envelope.data, data: envelope.data };
};
