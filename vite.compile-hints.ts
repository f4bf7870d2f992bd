/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chrome 136 and later; other engines
 * read it as a comment): a file that starts with it has every function compiled eagerly with the
 * file (on the thread that streams it in, where it is streamed), instead of lazily on the main
 * thread at each function's first call, which parses each function twice. It pays only for a file
 * whose functions nearly all run at start-up before `DOMContentLoaded`: the script entry of the
 * module build and the lazy classic script (the same start code; without WebMCP most of it runs
 * too: the options, the global, the audit). Not the registry chunk: measured
 * in Chromium 156 on a returning visit (the chunk comes from the memory cache), its eager compile
 * ran on the main thread at the entry's `import()`, 3.4 ms before `DOMContentLoaded` and the
 * page's first frame, for the same total as compiling its functions as they first run, after the
 * frame. The chunks loaded on a call, and the single-file classic script that inlines them, keep
 * lazy compilation too.
 */
import type { Plugin } from 'vite';
import { prependLines } from './vite.chunk-lines.ts';

/** The hint, exactly as V8 recognises it: the file's first line. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Starts each chunk that `hinted` accepts (by its chunk name) with COMPILE_HINT, once the chunk is
 * minified (a minifier drops comments), and moves its source map (`sourcemap: true`: a `.map`
 * file) down the line the hint adds. The hint is part of the chunk's hash, so a hashed chunk that
 * gets it (none today: the two hinted files have fixed names) never changes under the same name.
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
