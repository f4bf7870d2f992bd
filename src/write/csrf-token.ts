/**
 * The CSRF token a same-origin write carries, read at send time (a token can rotate while the
 * panel is open). Laravel's conventions, which Capell sites follow: the `csrf-token` meta tag
 * goes in `X-CSRF-TOKEN`; the `XSRF-TOKEN` cookie (URL-encoded) goes in `X-XSRF-TOKEN`.
 */

/** A header name and value, or undefined when the page carries no token. */
type CSRFHeader = { name: 'X-CSRF-TOKEN' | 'X-XSRF-TOKEN'; value: string } | undefined;

/**
 * Reads the page's CSRF token: `<meta name="csrf-token" content="…">` first, else the
 * `XSRF-TOKEN` cookie.
 * @returns the header to send, or undefined (the request then goes without one and the site
 *   answers 419 if it needs it).
 */
export function readCSRFHeader(doc: Document): CSRFHeader {
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  if (meta) return { name: 'X-CSRF-TOKEN', value: meta };
  for (const pair of doc.cookie.split(';')) {
    const [name, ...rest] = pair.trim().split('=');
    if (name === 'XSRF-TOKEN' && rest.length > 0) {
      try {
        return { name: 'X-XSRF-TOKEN', value: decodeURIComponent(rest.join('=')) };
      } catch {
        return { name: 'X-XSRF-TOKEN', value: rest.join('=') };
      }
    }
  }
  return undefined;
}
