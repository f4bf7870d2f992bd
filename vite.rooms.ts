/**
 * Chunks by room for the browser module builds (vite.config.ts, vite.lib.config.ts), so what a
 * call loads is what it needs (DESIGN section 6):
 * - call: the call module, the validator, the request path and the read room (src/reads): the
 *   first call of any tool loads it, and a read needs nothing more;
 * - write: the write room (src/writes: form filling, write endpoints, CSRF, the person's decision
 *   and its records) and the panel's seam in src/ui: loaded on the first write call only;
 * - capell-confirm-write: the lit panel, which the write room imports on its first proposal;
 * - lit: lit itself, which the panel and the inspector share;
 * - inspector: the operator's inspector (ui/inspector*.ts), loaded only when asked;
 * - agentgate: the AgentGate manifest's fetch and rules (and the receipts tool and store), on a
 *   page that names AgentGate; agentgate-call: its call (executor, Content-Digest, receipt check,
 *   structured-headers), on the first call.
 * The admin registry's fetch and rules (sources/admin-registry-fetch.ts) need no room: only the
 * source row imports it, dynamically, so it is a chunk of its own, loaded on admin pages alone.
 * A module joins its room's chunk only when every module that imports it statically is in a room
 * chunk too: start-up code and the declaration rules (the binding registry, the pattern checks in
 * src/validation) stay where the automatic chunking puts them, and never make the entry or the
 * rules load a room. Each group takes only the modules named for it, not their imports.
 */
import type { ChunkingContext } from 'rolldown';

/** The call machinery and the read room (src/bindings, src/reads, the request path, the validator). */
const CALL_ROOM = /src[\\/](bindings|reads|validation)[\\/]|src[\\/](request|validation|tool-input)\.ts$|node_modules[\\/]@cfworker[\\/]/;
/**
 * The write room and the UI seam the writes use; not the write status tool, which is registered
 * (without the write machinery) as soon as a write tool is.
 */
const WRITE_ROOM = /src[\\/](writes|ui)[\\/](?!status-tool\.ts$)/;
/** The confirmation panel, its own chunk. */
const PANEL = /src[\\/]ui[\\/](capell-confirm-write|click-guard)\.ts$/;
/**
 * lit, its own chunk: shared by the panel and the inspector (with their one shared UI helper,
 * deep-active-element.ts), so that opening the inspector loads lit alone, not the panel's chunk
 * and the write room it imports.
 */
const LIT = /node_modules[\\/](lit|lit-html|lit-element|@lit)[\\/]|src[\\/]ui[\\/]deep-active-element\.ts$/;

/** The inspector (lit, loaded only when asked: data-inspect, ?capell-webmcp=inspect, inspect()): its own chunk. */
const INSPECTOR = /src[\\/]ui[\\/]inspector[^\\/]*\.ts$/;

/**
 * The live registry and the declaration rules it runs (not the reason texts, loaded only to
 * explain a rejection, nor the $ref checks, loaded only for a schema with a $ref), and the write
 * status tool's descriptor (registered with the first write tool; a chunk of its own cost pages
 * with a form one more round trip before ready), and the sources table with its fetching sources
 * (AgentGate manifests, the admin registry: the entry reads only the islands): one chunk the
 * runtime imports where WebMCP exists, so a browser without it loads the entry alone, and one with
 * it gets registry and rules in one round trip.
 */
const REGISTRY = /src[\\/](follow|live-registry|failure-shape|page-observer|schema-reduction|registration-rules|form-tool-check|runtime-tools|tool-execute|report|result|request)\.ts$|src[\\/]declarations[\\/](?!reason-text|ref-checks|local-ref)[^\\/]+\.ts$|src[\\/]bindings[\\/](registry|targets|action-target|agentgate-endpoint|bounded-json)\.ts$|src[\\/]validation[\\/]linear-regex\.ts$|src[\\/]sources[\\/](source|index|admin-registry|agentgate)\.ts$|src[\\/]validation[\\/]work-units\.ts$|src[\\/]writes[\\/]status-tool\.ts$|rolldown[\\/]runtime/;

/**
 * AgentGate discovery (the manifest's fetch and rules, the receipts rules, the kept receipts with
 * idb-keyval, and the runtime's receipts and handoff status tools registered with the manifest's
 * tools): loaded on a page that names AgentGate.
 */
const AGENTGATE = /src[\\/]agentgate[\\/](manifest-(fetch|rules)|receipt-rules|receipt-store|receipts-tool|handoff-status-tool)\.ts$|src[\\/]sources[\\/]agentgate-naming\.ts$|node_modules[\\/]idb-keyval[\\/]/;
/**
 * AgentGate's call (the executor, Content-Digest, structured-headers, the receipt check and its
 * keys, and what finishes a call: network retries, payment, handoff polling): loaded on the first
 * AgentGate call. The page never signs: the agent's network layer does (src/agent).
 */
const AGENTGATE_CALL = /src[\\/]agentgate[\\/](tool-call|component-floor|signature-base|content-digest|base64|receipt|receipt-jws|receipt-keys|call-retry|payment|payment-price|handoff)\.ts$|node_modules[\\/]structured-headers[\\/]/;

/** The room a module's path names, or null. */
function namedRoom(id: string): string | null {
  if (REGISTRY.test(id)) return 'registry';
  if (AGENTGATE.test(id)) return 'agentgate';
  if (AGENTGATE_CALL.test(id)) return 'agentgate-call';
  if (PANEL.test(id)) return 'capell-confirm-write';
  if (LIT.test(id)) return 'lit';
  if (INSPECTOR.test(id)) return 'inspector';
  if (CALL_ROOM.test(id)) return 'call';
  if (WRITE_ROOM.test(id)) return 'write';
  return null;
}

/**
 * Whether `id` may leave for its room's chunk: it names a room, is no entry, and every module
 * that imports it statically may leave for a room too (a module in an import cycle counts as
 * one that may).
 */
function inRoom(id: string, context: ChunkingContext, seen = new Set<string>()): boolean {
  if (seen.has(id)) return true;
  seen.add(id);
  const info = context.getModuleInfo(id);
  if (!info || info.isEntry || namedRoom(id) === null) return false;
  return info.importers.every((importer) => inRoom(importer, context, seen));
}

/** Whether the entry imports `id` statically, directly or through other modules. */
function atStartUp(id: string, context: ChunkingContext, seen = new Set<string>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const info = context.getModuleInfo(id);
  if (!info) return false;
  return info.isEntry || info.importers.some((importer) => atStartUp(importer, context, seen));
}

/**
 * The room chunk of a module, or null to leave it to the automatic chunking. The registry room
 * takes every module it names that start-up does not need (lazily loaded importers such as the
 * reason texts then import from it: they never load before it).
 */
function roomOf(id: string, context: ChunkingContext): string | null {
  if (REGISTRY.test(id)) return atStartUp(id, context) ? null : 'registry';
  return inRoom(id, context) ? namedRoom(id) : null;
}

/** The `output.codeSplitting.groups` of a module build. */
export function roomChunkGroups() {
  return [{ name: roomOf, debugName: 'rooms', includeDependenciesRecursively: false }];
}
