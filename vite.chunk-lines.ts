/**
 * Text put before a built chunk's first line after rendering (generateBundle: a minifier would
 * drop it earlier), with the chunk's source map moved down the lines the text adds: its own `map`
 * and its `.map` file (`sourcemap: true`). vite.compile-hints.ts and vite.bundler-runtime.ts use it.
 */
import type { OutputBundle, OutputChunk } from 'rolldown';

/** A source map's part that moves: its mappings list the generated lines, separated by `;`. */
interface Mappings {
  mappings: string;
}

/**
 * Puts `text` (whole lines: it ends with a newline) before `chunk`'s code, and moves its source
 * maps down as many lines as `text` has, so every mapping still points at its source.
 * @param bundle the bundle `generateBundle` was given (where the chunk's `.map` file is).
 */
export function prependLines(bundle: OutputBundle, chunk: OutputChunk, text: string): void {
  const lines = text.split('\n').length - 1;
  const shift = (map: Mappings) => { map.mappings = `${';'.repeat(lines)}${map.mappings}`; };
  chunk.code = `${text}${chunk.code}`;
  if (chunk.map) shift(chunk.map);
  const file = bundle[`${chunk.fileName}.map`];
  if (file?.type !== 'asset') return;
  const parsed = JSON.parse(typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source)) as Mappings;
  shift(parsed);
  file.source = JSON.stringify(parsed);
}
