/**
 * Chunks by room for the browser module builds (vite.config.ts, vite.lib.config.ts), so what a
 * call loads is what it needs (DESIGN section 6). Start-up code (every module an entry imports
 * statically, directly or not) stays in the entry; of the rest:
 * - call: the call module, the validator, the request path and the read room (src/reads): the
 *   first call of any tool loads it, and a read needs nothing more;
 * - write: the write room (src/writes: form filling, write endpoints, CSRF, the person's decision
 *   and its records) and the panel's seam in src/ui: loaded on the first write call only;
 * - capell-confirm-write: the lit panel, which the write room imports on its first proposal.
 * Each group takes only the modules named for it (not their imports), so the request path the
 * writes share stays in the call chunk, which a read loads, and never drags a read into the
 * write chunk.
 */
import type { ChunkingContext } from 'rolldown';

/** The call machinery and the read room (src/bindings, src/reads, the request path, the validator). */
const CALL_ROOM = /src[\\/](bindings|reads|validation)[\\/]|src[\\/](request|validation|tool-input)\.ts$|node_modules[\\/]@cfworker[\\/]/;
/** The write room and the UI seam the writes use. */
const WRITE_ROOM = /src[\\/](writes|ui)[\\/]/;
/** The confirmation panel (lit), its own chunk. */
const PANEL = /src[\\/]ui[\\/](capell-confirm-write|click-guard)\.ts$|node_modules[\\/](lit|lit-html|lit-element|@lit)[\\/]/;

/**
 * Whether an entry imports `id` statically, directly or through other modules (the binding
 * registry in src/bindings, the validator's regular-expression checks in src/validation): such
 * a module is start-up code and must not be moved into a lazily loaded chunk.
 */
function loadedAtStart(id: string, context: ChunkingContext, seen = new Set<string>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const info = context.getModuleInfo(id);
  if (!info) return false;
  return info.isEntry || info.importers.some((importer) => loadedAtStart(importer, context, seen));
}

/** The room chunk of a module, or null to leave it to the automatic chunking (start-up code). */
function roomOf(id: string, context: ChunkingContext): string | null {
  if (loadedAtStart(id, context)) return null;
  if (PANEL.test(id)) return 'capell-confirm-write';
  if (CALL_ROOM.test(id)) return 'call';
  if (WRITE_ROOM.test(id)) return 'write';
  return null;
}

/** The `output.codeSplitting.groups` of a module build. */
export function roomChunkGroups() {
  return [{ name: roomOf, includeDependenciesRecursively: false }];
}
