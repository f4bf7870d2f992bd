/**
 * The bundler's runtime helpers, copied into each chunk that uses them instead of kept in a chunk
 * of their own. Rolldown puts its helpers (today only `__exportAll`, which builds the namespace
 * object an `import()` of a chunk resolves to) in `chunks/rolldown-runtime-<hash>.js` once more
 * than one chunk uses them, and the registry chunk, which every page with WebMCP loads at
 * start-up, imported it statically: start-up fetched two files, and the entry made two `import()`
 * calls before `DOMContentLoaded` (vite.chunk-imports.ts). Without it, in Chromium 156
 * (bench/startup-ab.js, 80 rounds): 55.9 → 50.4 ms from the navigation's start to every tool
 * registered at 10 tools, 109.8 → 105.4 ms at 500 (docs/performance.md). The helpers are about
 * 160 bytes with no state of their own, so each chunk gets its own copy.
 *
 * Rolldown's own `codeSplitting.experimentalInlineCommonChunks` requires
 * `preserveEntrySignatures: false`, which turns the script entry into a facade of a start chunk:
 * a second round trip for every visitor. Its runtime module reaches neither a group's `test` nor
 * its `name`, so it cannot be given to the registry's chunk either.
 *
 * After rendering (generateBundle), each chunk's `import{…}from"./rolldown-runtime-….js"` is
 * blanked with spaces of the same length (every column of the chunk's source map still holds),
 * and new first lines declare the same bindings from a copy of the helper chunk's code, run in a
 * function scope of its own (COPY_FORMAT); the source map moves down those lines
 * (vite.chunk-lines.ts). The helper chunk is then dropped. An importer's hash covers the helper
 * chunk's (its code names that file) and COPY_FORMAT (augmentChunkHash), so its name changes
 * whenever what it runs does. The copy runs where the chunk starts to evaluate, just after the
 * helper chunk would have: a chunk in a static import cycle could call a helper earlier, and the
 * rooms (vite.rooms.ts) leave no cycle between chunks. A helper chunk of another shape (an import
 * of its own, an export that is not a local name) or a chunk that re-exports from it fails the
 * build, naming this file. The copied code's free names (`Object`, `Symbol`) resolve in each
 * importer's scope, where they are the globals while no module declares a top-level binding of
 * those names (minified names are short).
 */
import { posix } from 'node:path';
import { RUNTIME_MODULE_ID } from 'rolldown';
import { Visitor } from 'rolldown/utils';
import type { Plugin } from 'vite';
import { prependLines } from './vite.chunk-lines.ts';

/**
 * What a chunk gets instead of the import, `<bindings>` and `<helpers>` filled in; part of every
 * importer's hash. The helper code is followed by a line break, so a line comment at its end
 * cannot swallow the `return`.
 */
const COPY_FORMAT = 'var{<bindings>}=(()=>{<helpers>\n;return{<exports>}})();\n';

/** Whether a chunk is the bundler's runtime helpers alone (`moduleIds` of a rendered chunk). */
export function isBundlerRuntimeChunk(chunk: { moduleIds?: readonly string[] } | undefined): boolean {
  return chunk?.moduleIds?.length === 1 && chunk.moduleIds[0] === RUNTIME_MODULE_ID;
}

interface Span {
  start: number;
  end: number;
}

/** An export or import name node's text (`t`, or a string name such as `"a-b"`). */
function exportedName(node: { type: string; name?: string; value?: unknown }): string {
  return node.type === 'Identifier' ? node.name! : String(node.value);
}

/** The plugin (module builds only: `output.format` 'es'). */
export function inlineBundlerRuntime(): Plugin {
  /** The helper chunks' file names as hashing sees them (renderChunk runs before augmentChunkHash). */
  const helperFiles = new Set<string>();
  return {
    name: 'capell-inline-bundler-runtime',
    renderStart() {
      helperFiles.clear();
    },
    renderChunk(_code, _chunk, _options, meta) {
      for (const chunk of Object.values(meta.chunks)) if (isBundlerRuntimeChunk(chunk)) helperFiles.add(chunk.fileName);
      return null;
    },
    // A chunk that imports the helpers changes after hashing: its name must differ from the one the
    // same code had with the import (a returning visitor's cache may hold that file as immutable).
    augmentChunkHash(chunk) {
      return chunk.imports.some((file) => helperFiles.has(file)) ? COPY_FORMAT : undefined;
    },
    generateBundle(_options, bundle) {
      const helpers = Object.values(bundle).filter((file) => file.type === 'chunk' && isBundlerRuntimeChunk(file));
      for (const helper of helpers) {
        if (helper.type !== 'chunk') continue;
        // The helper chunk's code as a function body: its statements, then its exports returned.
        const exports: string[] = [];
        const cut: Span[] = [];
        for (const statement of this.parse(helper.code).body) {
          if (statement.type === 'ExportNamedDeclaration' && !statement.source && !statement.declaration) {
            for (const specifier of statement.specifiers) {
              if (specifier.local.type !== 'Identifier') this.error(`vite.bundler-runtime.ts: ${helper.fileName} exports something other than a local name`);
              exports.push(`${JSON.stringify(exportedName(specifier.exported))}:${specifier.local.name}`);
            }
            cut.push(statement);
          } else if (statement.type !== 'VariableDeclaration' && statement.type !== 'FunctionDeclaration') {
            this.error(`vite.bundler-runtime.ts: ${helper.fileName} has a ${statement.type}; only declarations and one export list can be copied`);
          }
        }
        let helperCode = helper.code;
        for (const { start, end } of cut.sort((a, b) => b.start - a.start)) helperCode = helperCode.slice(0, start) + helperCode.slice(end);
        helperCode = helperCode.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '').trim();

        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || chunk === helper || !chunk.imports.includes(helper.fileName)) continue;
          const bindings: string[] = [];
          const blanked: Span[] = [];
          const fail: (message: string) => never = (message) => this.error(`vite.bundler-runtime.ts: ${chunk.fileName} ${message}`);
          const fromHelper = (source: { value: string } | null | undefined) => source != null && posix.join(posix.dirname(chunk.fileName), source.value) === helper.fileName;
          new Visitor({
            ImportDeclaration(node) {
              if (!fromHelper(node.source)) return;
              for (const specifier of node.specifiers) {
                if (specifier.type !== 'ImportSpecifier') fail(`imports ${helper.fileName} other than by name`);
                bindings.push(`${JSON.stringify(exportedName(specifier.imported))}:${specifier.local.name}`);
              }
              blanked.push(node);
            },
            ExportNamedDeclaration(node) {
              if (fromHelper(node.source)) fail(`re-exports from ${helper.fileName}`);
            },
            ExportAllDeclaration(node) {
              if (fromHelper(node.source)) fail(`re-exports from ${helper.fileName}`);
            },
          }).visit(this.parse(chunk.code));
          if (blanked.length === 0) fail(`lists ${helper.fileName} but does not import it by name`);
          for (const { start, end } of blanked) chunk.code = chunk.code.slice(0, start) + ' '.repeat(end - start) + chunk.code.slice(end);
          chunk.imports = chunk.imports.filter((file) => file !== helper.fileName);
          prependLines(bundle, chunk, COPY_FORMAT
            .replace('<bindings>', () => bindings.join(','))
            .replace('<helpers>', () => helperCode)
            .replace('<exports>', () => exports.join(',')));
        }
        delete bundle[helper.fileName];
        delete bundle[`${helper.fileName}.map`];
      }
    },
  };
}
