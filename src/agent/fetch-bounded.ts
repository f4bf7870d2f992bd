/**
 * The agent's own reads of a site (its manifest, its receipt keys), from Node and never through
 * the page: anonymous, no redirects followed, bounded in time and size.
 */

/** What a bounded read got: the text of a 200, or the one-line reason there is none. */
type BoundedText = { ok: true; text: string; response: Response } | { ok: false; reason: string };

/**
 * GETs `url` and reads its body up to `maxBytes`.
 * @param options `accept` (the Accept header), `maxBytes` (bytes), `timeoutMs` (ms, for the whole read)
 * @returns the text of a 200 answer, or `{ ok: false, reason }` naming the path and what went
 *   wrong (not reached, redirected, another status, too large, too slow). Never rejects.
 */
export async function fetchBoundedText(url: URL, options: { accept: string; maxBytes: number; timeoutMs: number }): Promise<BoundedText> {
  const where = `${url.origin}${url.pathname}`;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', headers: { Accept: options.accept }, signal, credentials: 'omit' });
  } catch (error) {
    return { ok: false, reason: signal.aborted ? `${where} did not answer within ${options.timeoutMs} ms` : `${where} could not be read (${(error as Error).message})` };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { ok: false, reason: `${where} answered ${response.status}` };
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
      if (done || !value) break;
      size += value.byteLength;
      if (size > options.maxBytes) {
        await reader?.cancel();
        return { ok: false, reason: `${where} is larger than ${options.maxBytes} bytes` };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: signal.aborted ? `${where} did not answer within ${options.timeoutMs} ms` : `${where} broke off while being read` };
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), response };
  } catch {
    return { ok: false, reason: `${where} is not UTF-8 text` };
  }
}
