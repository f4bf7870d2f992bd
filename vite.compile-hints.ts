/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chrome 136 and later; other engines
 * read it as a comment): a file that starts with it has every function compiled eagerly with the
 * file (on the thread that streams it in, where it is streamed), instead of lazily on the main
 * thread at each function's first call, which parses each function twice. It pays for a file
 * whose functions nearly all run at start-up: the script entry of the module build and the lazy
 * classic script (the same start code; without WebMCP most of it runs too: the options, the
 * global, the audit), and the registry chunk, which the entry's `import()` now requests from a
 * promise job once the entry has run, so Chromium streams it and compiles it on a background
 * thread. Measured in Chromium 156 (bench/startup-ab.js, 80 rounds, ms from the navigation's
 * start to every tool registered): at 500 tools 91.3 → 87.7 ms; at 10 tools no change (51.8 and
 * 52.8 ms medians, 51.9 and 51.7 middle-half means): there the main thread's lazy compiling of
 * the registry's start-up path (about 3.5 ms in a Chromium trace) is traded for the background
 * compile of the whole chunk, which on a 2-core machine runs beside the page's first frame and
 * slows it about as much (docs/performance.md).
 * (When the chunk was requested from the entry's top level, its eager compile ran on the main
 * thread before `DOMContentLoaded`, and the hint cost more than it saved.) The chunks loaded on a
 * call, and the single-file classic script that inlines them, keep lazy compilation.
 */
import type { Plugin } from 'vite';
import { prependLines } from './vite.chunk-lines.ts';

/** The hint, exactly as V8 recognises it: the file's first line. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Starts each chunk that `hinted` accepts (by its chunk name) with COMPILE_HINT, once the chunk is
 * minified (a minifier drops comments), and moves its source map (`sourcemap: true`: a `.map`
 * file) down the line the hint adds. The hint is part of the chunk's hash, so a hashed chunk that
 * gets it (the registry chunk) never changes under the same name.
 * (Rolldown's `output.postBanner` would start every other chunk with an empty line.)
 */
export function compileHints(hinted: (chunkName: string) => boolean): Plugin {
  return {
    name: 'capell-compile-hints',
    augmentChunkHash(chunk) {
      return hinted(chunk.name) ? COMPILE_HINT : undefined;
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && hinted(chunk.name)) prependLines(bundle, chunk, `${COMPILE_HINT}\n`);
      }
    },
  };
}
