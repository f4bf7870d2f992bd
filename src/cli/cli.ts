/**
 * The `capell-webmcp` command line (Node): the same declaration rules and the same audit as the
 * browser runtime, so a site can check its manifest and its pages before they ship.
 *
 * ```
 * capell-webmcp validate <capell.json>… [--translations <file.json>]… [--origin <url>]
 * capell-webmcp audit <html-file-or-url> [--strict]
 * capell-webmcp check <html-file-or-url> [--strict] [--origin <url>] [--translations <file.json>]
 * ```
 *
 * Exit codes: 0 valid / clean; 1 rejected (validate: any of its files) or an audit entry at level error (audit);
 * 2 usage error (unknown command or option, missing argument, unreadable file or URL).
 * No side effects on import: `bin/capell-webmcp.js` calls `runCLI`.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseHTML } from 'linkedom';
import { auditSurfaces, coverageOf, type AuditLevel, type AuditRoot } from '../start/audit.js';
import { readOptions, SCRIPT_MARKER } from '../start/config.js';
import type { Messages } from '../shared/declarations/i18n.js';
import type { Reason } from '../shared/declarations/reason.js';
import { normaliseCapellDeclaration } from '../shared/declarations/normalise.js';
import { REASON_TEXT, renderReason } from '../shared/declarations/reason-text.js';
import { NameClaims, registrationRefusal } from '../shared/registration-rules.js';
import { formToolRuleNote } from '../shared/form-tool-check.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { MANIFEST_REJECTION_NAME } from '../start/report.js';
import { readAgentGateMember } from '../agentgate/discover/agentgate-naming.js';
import { readPageDeclarations } from '../registry/sources/index.js';
import { readIslands } from '../start/read-islands.js';
import { findJSONError, lineColumnAt } from './json-error.js';
import { findNearMissIslands, TOOLS_ISLAND_ATTRIBUTE } from './near-miss-islands.js';
import { readScriptTags } from './script-tags.js';

/** Exit code: the manifest is valid, or the audit found nothing at level error. */
const EXIT_OK = 0;

/** Exit code: a declaration (or the manifest) was rejected, or an audit entry is an error. */
const EXIT_REJECTED = 1;

/** Exit code: the command line was wrong, or a file or URL could not be read. */
const EXIT_USAGE = 2;

/**
 * The origin endpoint targets are checked against when `--origin` is not given. Any origin works
 * for the rules (a target must stay on the page's origin, whichever it is); `.invalid` never resolves.
 */
const DEFAULT_ORIGIN = 'https://site.invalid';

/**
 * The capell.json key that carries the human-readable reason of `"agent_tools": "none"`
 * (Capell Agent Schema, "Tool declarations": "agent_tools: none with a human-readable reason").
 */
const AGENT_TOOLS_REASON_KEY = 'agent_tools_reason';

/** The `name` printed for a problem with the manifest as a whole (as the Report names it). */
const MANIFEST_LINE_NAME = MANIFEST_REJECTION_NAME;

/** Where the CLI writes: one call per line, without the newline. */
interface CLIOutput {
  out(line: string): void;
  err(line: string): void;
}

/** What `validate` needs besides the manifest. */
interface ValidateContext {
  /** The page origin endpoint targets must stay on, e.g. `https://shop.example`. */
  origin: string;
  /** Translations for `descriptionKey` (flat map key → text). */
  messages: Messages;
}

const USAGE = `Usage:
  capell-webmcp validate <capell.json>... [--translations <file.json>]... [--origin <url>]
  capell-webmcp audit <html-file-or-url> [--strict]
  capell-webmcp check <html-file-or-url> [--strict] [--origin <url>] [--translations <file.json>]

validate  checks every agent_tools declaration of an extension manifest with the runtime's
          normaliser, or "agent_tools": "none" with a non-empty "${AGENT_TOOLS_REASON_KEY}".
          Prints "<name>: <reason>" per rejection reason; with several manifests, each judged
          on its own, "<file>: <name>: <reason>". --translations: flat JSON map key -> text
          for descriptionKey; give it once for every manifest, or once per manifest, in the
          manifests' order (the first for the first manifest, and so on).
          --origin: the site origin (default ${DEFAULT_ORIGIN}).
audit     lists the page's forms and [data-capell-action] elements that no declaration covers
          and that are not marked data-agent-tools="none" with a data-agent-tools-reason.
          Prints "<level>: <surface>: <message>" per entry. --strict: every entry is an error.

check     reads the page's Capell tools islands as the runtime does (no WebMCP browser needed):
          prints "<island>: (manifest): <reason>" for an island that cannot be read (invalid JSON
          with its line and column in the page's file), "<island>: <name>: <reason>" for every
          rejected declaration (the runtime's rules, first name wins across islands, a form
          already a native tool), every form tool whose form or named control is missing, a
          script whose attribute is a misspelling of data-capell-agent-tools (an error when the
          page has no island), then the audit lines.
          --origin: the site origin (default: the URL's, or https://site.invalid for a file).

Exit codes: 0 ok, 1 rejected (any file) / audit error, 2 usage or read error.`;

/** A mistake in the command line: reported with the usage text. */
class UsageError extends Error {
  override name = 'UsageError';
}

/** A file or URL that could not be read: reported on its own (the command line was fine). */
class ReadError extends Error {
  override name = 'ReadError';
}

/**
 * Checks an extension manifest (capell.json) the way the runtime checks a tools island: every
 * `agent_tools` entry through `normaliseCapellDeclaration`, the first declaration of a name wins.
 * `"agent_tools": "none"` is valid only with a non-empty string `agent_tools_reason`.
 * An `agentgate` member (true, false, or `{ "siteKey": … }`: what the runtime reads from a tools
 * island, agentgate/discover/agentgate-naming.ts) is accepted; any other value is a `(manifest)` line, as
 * the runtime reports it. Never throws.
 * @returns one `<name>: <reason>` line per rejection reason; empty when the manifest is valid.
 *   `<name>` is the declared name, `agent_tools[i]` for an entry without one, or `(manifest)`.
 * @example validateManifest({ agent_tools: [{ name: 'Bad Name', … }] }, { origin, messages: {} })
 * // → ['Bad Name: name: "Bad Name" is not a lowercase dotted name …']
 */
export function validateManifest(manifest: unknown, context: ValidateContext): string[] {
  if (!isPlainObject(manifest)) return [`${MANIFEST_LINE_NAME}: must be a JSON object`];
  const agentgate = readAgentGateMember(manifest.agentgate);
  const memberLines = Array.isArray(agentgate) ? [`${MANIFEST_LINE_NAME}: ${renderReason(agentgate as Reason)}`] : [];
  return [...memberLines, ...validateTools(manifest, context)];
}

/** validateManifest's verdict on `agent_tools` alone. */
function validateTools(manifest: Record<string, unknown>, context: ValidateContext): string[] {
  const tools = manifest.agent_tools;
  if (tools === 'none') {
    const reason = manifest[AGENT_TOOLS_REASON_KEY];
    return typeof reason === 'string' && reason.trim() !== ''
      ? []
      : [`${MANIFEST_LINE_NAME}: agent_tools: "none" needs a human-readable "${AGENT_TOOLS_REASON_KEY}" (a non-empty string)`];
  }
  if (!Array.isArray(tools)) {
    return [`${MANIFEST_LINE_NAME}: agent_tools: required, an array of declarations or "none" with an "${AGENT_TOOLS_REASON_KEY}"`];
  }
  const lines: string[] = [];
  // The runtime's registration rules and wording: the first declaration of a name wins.
  const claims = new NameClaims();
  tools.forEach((declaration, index) => {
    const source = `agent_tools[${index}]`;
    const result = normaliseCapellDeclaration(declaration, { source, origin: context.origin, messages: context.messages });
    if (!result.ok) {
      for (const reason of result.reasons) lines.push(`${result.name || source}: ${reason}`);
      return;
    }
    const refusal = registrationRefusal(result.spec, source, claims);
    if (refusal) lines.push(`${result.spec.name}: ${typeof refusal === 'string' ? refusal : renderReason(refusal)}`);
  });
  return lines;
}

async function readText(path: string, what: string): Promise<string> {
  try {
    // Editors on some systems save UTF-8 with a byte order mark; JSON.parse would refuse it.
    return (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    throw new ReadError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

async function readPage(target: string): Promise<string> {
  if (!/^https?:\/\//i.test(target)) return readText(target, 'HTML file');
  let response: Response;
  try {
    response = await fetch(target, { headers: { Accept: 'text/html' } });
  } catch (error) {
    throw new ReadError(`cannot fetch ${target}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new ReadError(`cannot fetch ${target}: HTTP ${response.status}`);
  return response.text();
}

/**
 * `validate <capell.json>…`: each file judged on its own (first name wins only within a file).
 * Every file is read before anything is printed, so an unreadable one (exit 2) prints no verdicts.
 * One file prints `<name>: <reason>`; several prefix each line with the file, `<file>: <name>: <reason>`.
 * `--translations` given once holds for every file; given once per file, the n-th is the n-th
 * file's (so one process judges files whose descriptionKeys resolve differently); any other count
 * is a usage error.
 */
async function validate(args: string[], output: CLIOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, options: { translations: { type: 'string', multiple: true }, origin: { type: 'string' } },
  });
  if (positionals.length === 0) throw new UsageError('validate takes at least one capell.json');
  let origin = DEFAULT_ORIGIN;
  if (values.origin !== undefined) {
    const url = URL.canParse(values.origin) ? new URL(values.origin) : undefined;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new UsageError(`--origin: ${JSON.stringify(values.origin)} is not an http(s) URL`);
    origin = url.origin;
  }
  const translations = values.translations ?? [];
  if (translations.length > 1 && translations.length !== positionals.length) {
    throw new UsageError(`--translations: given ${translations.length} times for ${positionals.length} manifests; give it once (for every manifest) or once per manifest`);
  }
  // Each distinct file read and checked once, however many manifests it is given for.
  const read = new Map<string, Promise<Messages>>();
  for (const path of translations) if (!read.has(path)) read.set(path, readTranslations(path));
  const messages = await Promise.all(translations.map((path) => read.get(path)!));
  const messagesOf = (index: number): Messages => messages[translations.length === 1 ? 0 : index] ?? {};
  const texts = await Promise.all(positionals.map((file) => readText(file, 'manifest')));
  let code = EXIT_OK;
  positionals.forEach((file, index) => {
    const prefix = positionals.length > 1 ? `${file}: ` : '';
    if (validateFile(file, texts[index]!, { origin, messages: messagesOf(index) }, (line) => output.out(`${prefix}${line}`), output) !== EXIT_OK) code = EXIT_REJECTED;
  });
  return code;
}

/**
 * A `--translations` file: a JSON object, key → text.
 * @throws ReadError when it cannot be read; UsageError when it is not JSON or not an object.
 */
async function readTranslations(path: string): Promise<Messages> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readText(path, 'translations file'));
  } catch (error) {
    if (error instanceof ReadError) throw error;
    throw new UsageError(`--translations: ${path} is not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(parsed)) throw new UsageError(`--translations: ${path} must hold a JSON object (key → text)`);
  return parsed as Messages;
}

/** One manifest's verdict: its rejection lines to `out`, the summary of a valid one to `output.err`. */
function validateFile(file: string, text: string, context: ValidateContext, out: (line: string) => void, output: CLIOutput): number {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    out(`${MANIFEST_LINE_NAME}: ${jsonErrorText(text, 0, text, (error as Error).message)}`);
    return EXIT_REJECTED;
  }
  const lines = validateManifest(manifest, context);
  for (const line of lines) out(line);
  if (lines.length > 0) return EXIT_REJECTED;
  const tools = (manifest as { agent_tools: unknown }).agent_tools;
  output.err(`${file}: ${Array.isArray(tools) ? `${tools.length} agent_tools declarations valid` : 'agent_tools: "none" with a reason'}`);
  return EXIT_OK;
}

async function audit(args: string[], output: CLIOutput): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { strict: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) throw new UsageError('audit takes exactly one HTML file or URL');
  const target = positionals[0]!;
  const { document } = parseHTML(await readPage(target));
  const root = document as unknown as AuditRoot & ParentNode;
  // The page's own settings, read from its script tag as the runtime reads them (an invalid one
  // is at its default, with the same message); --strict overrides data-audit.
  const origin = /^https?:\/\//i.test(target) ? new URL(target).origin : DEFAULT_ORIGIN;
  const page = readOptions({ script: root.querySelector<HTMLScriptElement>(`script[${SCRIPT_MARKER}]`) }, origin);
  for (const problem of page.problems) output.err(`capell-webmcp: ${target}: ${problem.message}; using its default`);
  const level: AuditLevel = values.strict ? 'error' : page.settings.audit;
  const declarations = readPageDeclarations(root);
  const entries = auditSurfaces(root, coverageOf(declarations), level);
  for (const entry of entries) output.out(`${entry.level}: ${entry.surface}: ${entry.message}`);
  output.err(`${target}: ${entries.length} audit ${entries.length === 1 ? 'entry' : 'entries'}`);
  return entries.some((entry) => entry.level === 'error') ? EXIT_REJECTED : EXIT_OK;
}

/**
 * A JSON text's error as a line: `not valid JSON (<what>) at line L, column C`, the line and
 * column counted in `file`, where the JSON text starts at `start` (an island's content in its
 * page, or 0 for a whole file). The error is found by json-error.ts, which names a trailing comma
 * or a missing one at its own place; `JSON.parse`'s message stands where that finds none.
 * @param json the JSON text; `parseMessage` what `JSON.parse` said of it
 */
function jsonErrorText(file: string, start: number, json: string, parseMessage: string): string {
  const error = findJSONError(json);
  if (!error) return REASON_TEXT.manifestJSON(parseMessage);
  const { line, column } = lineColumnAt(file, start + error.offset);
  return `${REASON_TEXT.manifestJSON(error.message)} at line ${line}, column ${column}`;
}

/**
 * Where each tools island's content starts in the page's text, in `readIslands` order: the n-th
 * island is the n-th script tag carrying `data-capell-agent-tools` whose content is the island's
 * text; undefined for an island the text does not show there (then its JSON error is counted from
 * the island's own first line, and says so).
 */
function islandStarts(html: string, islands: readonly { fingerprint: string }[]): (number | undefined)[] {
  const tags = readScriptTags(html).filter((tag) => tag.attributes.includes(TOOLS_ISLAND_ATTRIBUTE));
  return islands.map((island, index) => {
    const tag = tags[index];
    return tag && html.startsWith(island.fingerprint, tag.contentStart) ? tag.contentStart : undefined;
  });
}

/**
 * `check <page>`: what the runtime would register from the page's Capell tools islands, and why
 * not the rest, without a WebMCP browser: each island read as the runtime reads it
 * (start/read-islands.ts; an island that is not JSON named with the line and column of its error
 * in the page's file, json-error.ts), each declaration through the runtime's rules
 * (`normaliseCapellDeclaration`, `registrationRefusal` with the page, so a form already a native
 * `toolname` tool counts), form tools against their form and controls (form-tool-check.ts), the
 * scripts whose attribute is a near miss of `data-capell-agent-tools` (near-miss-islands.ts: an
 * error on a page with no island, else a warning), then the audit. AgentGate manifests the page
 * names are not fetched.
 * @returns EXIT_REJECTED when anything is rejected, a near miss is an error, or an audit entry is
 *   an error, else EXIT_OK.
 */
async function check(args: string[], output: CLIOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true,
    options: { strict: { type: 'boolean', default: false }, origin: { type: 'string' }, translations: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('check takes exactly one HTML file or URL');
  const target = positionals[0]!;
  let origin = /^https?:\/\//i.test(target) ? new URL(target).origin : DEFAULT_ORIGIN;
  if (values.origin !== undefined) {
    if (!URL.canParse(values.origin) || !/^https?:$/.test(new URL(values.origin).protocol)) throw new UsageError(`--origin: ${JSON.stringify(values.origin)} is not an http(s) URL`);
    origin = new URL(values.origin).origin;
  }
  const extra = values.translations === undefined ? {} : await readTranslations(values.translations);
  const html = await readPage(target);
  const { document } = parseHTML(html);
  let rejected = 0;
  let valid = 0;
  // Registered tools' declaration warnings: the runtime puts them in the Report's audit, after the surfaces.
  const warnings: string[] = [];
  const claims = new NameClaims();
  const islands = readIslands(document as unknown as ParentNode);
  const starts = islandStarts(html, islands);
  islands.forEach((unit, index) => {
    const label = `capell-island[${index}]`;
    if (unit.problem) {
      rejected++;
      const [, code, detail] = unit.problem;
      let text = renderReason(unit.problem);
      if (code === 'manifestJSON') {
        const start = starts[index];
        text = `manifest: ${start === undefined
          ? `${jsonErrorText(unit.fingerprint, 0, unit.fingerprint, String(detail))} (counted from the island's first line)`
          : jsonErrorText(html, start, unit.fingerprint, String(detail))}`;
      }
      output.out(`${label}: ${MANIFEST_LINE_NAME}: ${text}`);
      return;
    }
    for (const declaration of unit.declarations) {
      const result = normaliseCapellDeclaration(declaration, { source: label, origin, messages: { ...unit.messages, ...extra } });
      if (!result.ok) {
        rejected++;
        for (const reason of result.reasons) output.out(`${label}: ${result.name || '(unnamed)'}: ${reason}`);
        continue;
      }
      const refusal = registrationRefusal(result.spec, label, claims, document as unknown as Document);
      if (!refusal) {
        valid++;
        for (const warning of result.warnings) warnings.push(`warning: tool ${result.spec.name}: ${warning}`);
        const ruleNote = formToolRuleNote(result.spec, document as unknown as Document);
        if (ruleNote) warnings.push(`warning: tool ${result.spec.name}: ${ruleNote}`);
        continue;
      }
      rejected++;
      output.out(`${label}: ${result.spec.name}: ${typeof refusal === 'string' ? refusal : renderReason(refusal)}`);
    }
  });
  // A misspelt island attribute registers nothing, silently: an error where the page has no
  // island at all (nothing would register), a warning beside islands that are read.
  const misses = findNearMissIslands(document as unknown as ParentNode, html, readScriptTags(html));
  const missLevel = islands.length === 0 || values.strict ? 'error' : 'warning';
  for (const miss of misses) {
    const where = miss.line === undefined ? '' : ` (line ${miss.line})`;
    const none = islands.length === 0 ? 'this page has no tools island: ' : '';
    output.out(`${missLevel}: script[${miss.attribute}]${where}: ${none}the runtime reads only <script ${TOOLS_ISLAND_ATTRIBUTE}>; this script carries ${miss.attribute}, so nothing in it registers (did you mean ${TOOLS_ISLAND_ATTRIBUTE}?)`);
  }
  const root = document as unknown as AuditRoot & ParentNode;
  const page = readOptions({ script: root.querySelector<HTMLScriptElement>(`script[${SCRIPT_MARKER}]`) }, origin);
  for (const problem of page.problems) output.err(`capell-webmcp: ${target}: ${problem.message}; using its default`);
  const entries = auditSurfaces(root, coverageOf(readPageDeclarations(root)), values.strict ? 'error' : page.settings.audit);
  for (const entry of entries) output.out(`${entry.level}: ${entry.surface}: ${entry.message}`);
  for (const warning of warnings) output.out(warning);
  const audited = entries.length + warnings.length;
  const missCount = misses.length === 0 ? '' : `, ${misses.length} misspelt island ${misses.length === 1 ? 'attribute' : 'attributes'}`;
  output.err(`${target}: ${valid} ${valid === 1 ? 'tool' : 'tools'} would register, ${rejected} rejected, ${audited} audit ${audited === 1 ? 'entry' : 'entries'}${missCount}`);
  return rejected > 0 || (misses.length > 0 && missLevel === 'error') || entries.some((entry) => entry.level === 'error') ? EXIT_REJECTED : EXIT_OK;
}

/**
 * Runs one command line. Never throws: usage and read errors are printed to `err` and return 2.
 * @param args the arguments after the program name, e.g. `['validate', 'capell.json']`.
 * @returns the exit code: `EXIT_OK` 0, `EXIT_REJECTED` 1, `EXIT_USAGE` 2.
 * @example process.exitCode = await runCLI(process.argv.slice(2));
 */
export async function runCLI(args: readonly string[], output: CLIOutput = { out: console.log, err: console.error }): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === 'validate') return await validate(rest, output);
    if (command === 'audit') return await audit(rest, output);
    if (command === 'check') return await check(rest, output);
    if (command === 'help' || command === '--help' || command === '-h') {
      output.out(USAGE);
      return EXIT_OK;
    }
    throw new UsageError(command === undefined ? 'no command given' : `unknown command ${JSON.stringify(command)}`);
  } catch (error) {
    // parseArgs reports unknown options as TypeErrors with a code; both are command-line mistakes.
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      output.err(`capell-webmcp: ${(error as Error).message}\n\n${USAGE}`);
      return EXIT_USAGE;
    }
    if (error instanceof ReadError) {
      output.err(`capell-webmcp: ${error.message}`);
      return EXIT_USAGE;
    }
    output.err(`capell-webmcp: ${(error as Error).stack ?? String(error)}`);
    return EXIT_USAGE;
  }
}
