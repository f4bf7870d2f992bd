/**
 * Chunks by folder for the browser module build (vite.config.ts): each folder of src/ is a unit
 * the browser loads, and the build names its chunk after it, so what a call loads is what it
 * needs and the folders show it:
 * - start/: the entry itself (`capell-webmcp.js`), all a browser without WebMCP loads;
 * - registry/: the live registry, the sources table and the request path, loaded where WebMCP
 *   exists; shared/ rules it needs come with it;
 * - call/: the call module, the validator and the read executors, on the first call;
 * - write/: what every write needs (the pending write and its answers, the panel's words, CSRF,
 *   the panel's opener and the checks the panel shares with forms), on the first write call;
 *   write/forms/ (`write-forms`): form filling and the form's checks, on the first form write;
 *   write/endpoint/ (`write-endpoint`): write endpoints, on the first one;
 *   write/admin/ (`write-admin`): admin writes and their German words, on the first admin write;
 *   write/status/ (`write-status`): the `capell.write.status` call, on its first call;
 * - panel/: the lit confirmation panel, which the write chunk imports on its first proposal;
 * - inspector/: the operator's inspector, only when asked;
 * - agentgate/discover/ (`agentgate-discover`): the manifest's fetch and rules, on a page that
 *   names AgentGate; agentgate/call/ (`agentgate-call`): its call, on the first call;
 * - admin/: Capell's admin: the tool list's fetch and rules, the invoke route and its reads, on
 *   admin pages alone (admin writes, write/admin/, import its invoke route: always loaded before).
 * A unit's module imports statically only its own unit, shared/ and the units always loaded
 * before it (test/unit/rooms.test.ts). shared/ is not a unit: its rules land where they are first
 * needed (the entry, the registry chunk, or, for one loaded only on demand such as the reason
 * texts, a chunk of its own). A package from node_modules lands with the unit that imports it,
 * or in one chunk for the units that share it (`inspector-panel`: lit). src/agent and src/cli run
 * in Node and are built apart (vite.agent.config.ts, vite.cli.config.ts). Adding a unit is adding
 * a folder: its chunk follows.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChunkingContext } from 'rolldown';

const SRC = fileURLToPath(new URL('./src/', import.meta.url));
/** The script entry: its chunk is `capell-webmcp.js`. */
const SCRIPT_ENTRY = fileURLToPath(new URL('./src/auto.ts', import.meta.url));

/** The folder of shared rules: no chunk of its own. */
const SHARED = 'shared';
/** The folder of the start-up code, and the group of the entry's chunk. */
const START = 'start';
/** The unit that runs the shared rules where WebMCP exists. */
const REGISTRY = 'registry';
/** The unit every write loads, before its sub-folder's (write-forms, write-endpoint, write-admin, write-status). */
const WRITE = 'write';

/** Folders whose sub-folders are units of their own (`<folder>-<sub>`). */
const SPLIT_FOLDERS = ['agentgate', 'write'];

/**
 * The unit folder of a module: the top folder under src/, or `<folder>-<sub>` for a sub-folder of
 * agentgate/ or write/; null for the entries (src/auto.ts, src/index.ts) and for anything outside
 * src/.
 */
function unitOf(id: string): string | null {
  const path = relative(SRC, id);
  if (path.startsWith('..') || /^[\\/]|^\0/.test(path)) return null;
  const parts = path.split(/[\\/]/);
  if (parts.length < 2) return null;
  return SPLIT_FOLDERS.includes(parts[0]!) && parts.length > 2 ? `${parts[0]}-${parts[1]}` : parts[0]!;
}

/**
 * Whether `id` is the script entry (src/auto.ts) or the entry imports it statically, directly or
 * through other modules; not another entry (the classic script's door, vite.classic-script.ts).
 */
function atStartUp(id: string, context: ChunkingContext, seen = new Set<string>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const info = context.getModuleInfo(id);
  if (!info) return false;
  return id === SCRIPT_ENTRY || info.importers.some((importer) => atStartUp(importer, context, seen));
}

/** A module whose chunk is being decided further up the same walk: an import cycle. */
const IN_CYCLE = Symbol('in an import cycle');
type Decision = string | null | typeof IN_CYCLE;

/**
 * The chunk of a module, or null to leave it to the automatic chunking (a chunk of its own for
 * what only `import()` reaches):
 * - the entry and every module it imports statically are the entry's chunk (`start`, written as
 *   `capell-webmcp.js`), also when another entry reaches them (the classic script's door);
 * - a unit's module joins the unit's chunk when every module that imports it statically leaves
 *   the entry too (a module in an import cycle counts as one that does), so start-up code never
 *   makes the entry load a unit; the registry takes its modules start-up does not need;
 * - a shared module (or a package) start-up does not need joins the registry chunk when the
 *   registry needs it at once: a registry module imports it statically, or start-up code by
 *   `import()` (which the registry runs). Otherwise it joins the chunk of the units that import it,
 *   one chunk for what several share (`inspector-panel`: lit), write/'s own chunk for what only
 *   write/ and its sub-folders share; loaded only on demand (only
 *   `import()` reaches it, or a module left to the automatic chunking imports it), it is left to
 *   the automatic chunking: a chunk of its own.
 */
function chunkOf(id: string, context: ChunkingContext, decided: Map<string, Decision>): Decision {
  if (decided.has(id)) return decided.get(id)!;
  decided.set(id, IN_CYCLE);
  const chunk = decide(id, context, decided);
  decided.set(id, chunk);
  return chunk;
}

function decide(id: string, context: ChunkingContext, decided: Map<string, Decision>): string | null {
  const info = context.getModuleInfo(id);
  if (!info) return null;
  if (atStartUp(id, context)) return START;
  const importers = info.importers.map((importer) => chunkOf(importer, context, decided));
  const unit = /[\\/]node_modules[\\/]/.test(id) ? SHARED : unitOf(id);
  if (unit === null || unit === START) return null;
  if (unit === REGISTRY) return REGISTRY;
  if (unit !== SHARED) return importers.every((chunk) => chunk !== null && chunk !== START) ? unit : null;
  if (importers.includes(REGISTRY) || info.dynamicImporters.some((importer) => atStartUp(importer, context))) return REGISTRY;
  const chunks = new Set(importers.filter((chunk) => chunk !== IN_CYCLE));
  if (chunks.size === 0 || chunks.has(null)) return null;
  // write/'s sub-folder units always load with write/'s own: what only they and it need goes there.
  if ([...chunks].every((chunk) => chunk === WRITE || chunk!.startsWith(`${WRITE}-`))) return WRITE;
  return [...chunks].sort().join('-');
}

/** The `output.codeSplitting.groups` of a module build: one group per unit folder. */
export function roomChunkGroups() {
  const decided = new Map<string, Decision>();
  const name = (id: string, context: ChunkingContext) => {
    const chunk = chunkOf(id, context, decided);
    return chunk === IN_CYCLE ? null : chunk;
  };
  return [{ name, debugName: 'units', includeDependenciesRecursively: false }];
}
