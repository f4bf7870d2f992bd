/**
 * A consumer's use of the public API, as docs/library.md shows it: compiles with the
 * package's declarations under Bundler and Node16 resolution (tsconfig.bundler.json,
 * tsconfig.node16.json), with no error and no TS7016 (untyped module).
 */
import {
  DEFAULT_API_BASE, start, VERSION, normaliseCapellDeclaration,
  type AuditEntry, type CallToolResult, type Rejection, type Report, type Runtime, type RuntimeOptions, type ToolSpec,
} from 'capell-webmcp';
// The script-tag entry's types: window.capellWebMCP (a type-only import runs nothing).
import type { CapellWebMCPGlobal } from 'capell-webmcp/auto';

const options: RuntimeOptions = { apiBase: DEFAULT_API_BASE, timeoutMs: 5000, log: 'silent', audit: 'error' };
const runtime: Runtime = start(options);
const report: Report = await runtime.ready;
const registered: string[] = report.registered;
const rejected: Rejection[] = report.rejected;
const audit: AuditEntry[] = report.audit;
const reasons: string[] = rejected.flatMap((rejection) => rejection.reasons);
runtime.stop();

const result = normaliseCapellDeclaration({ name: 'site.search', effect: 'read', binding: { type: 'search', target: 'pages' } }, { source: 'capell.json', origin: 'https://shop.example', messages: {} });
const tool: ToolSpec | undefined = result.ok ? result.spec : undefined;
declare const answer: CallToolResult;
const version: string = VERSION;
const global: CapellWebMCPGlobal | undefined = window.capellWebMCP;
const first: Promise<Report> | undefined = global?.ready;

export { registered, audit, reasons, tool, answer, version, first };
