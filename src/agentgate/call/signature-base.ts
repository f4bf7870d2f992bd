import {
  parseDictionary, serializeInnerList, serializeItem, type BareItem, type InnerList, type Item, type Parameters,
} from 'structured-headers';

/**
 * The RFC 9421 signature base (§2.5) of an HTTP request: one line per covered component, then
 * the `@signature-params` line whose value is exactly the `Signature-Input` member value.
 */

/** The parts of a request a signature can cover; a fetch `Request` is one. */
export interface HttpMessage {
  /** Request method as sent, e.g. `POST` (RFC 9421 §2.2.1: case-sensitive). */
  method: string;
  /** Absolute target URI; a fragment is ignored. */
  url: string;
  /** Header fields; `get` returns the combined value (`, `-joined) or null. */
  headers: { get(name: string): string | null };
}

/**
 * One covered component (RFC 9421 §2): a derived component (`@method`, `@authority`, `@path`,
 * `@query`, `@target-uri`, `@scheme`, `@request-target`) or a header field name, written
 * lower-case. `key` selects one member of a Structured Fields dictionary field (§2.1.2).
 */
interface ComponentId {
  name: string;
  key?: string;
}

/** A component as a bare name (`'@authority'`, `'content-digest'`) or with its `key` parameter. */
export type Component = string | ComponentId;

/**
 * Signature parameters (§2.3), serialised in the order given: `created`/`expires` are Unix
 * seconds (integers), `keyid`, `nonce`, `tag` and `alg` strings.
 */
export interface SignatureParams {
  created?: number;
  expires?: number;
  keyid?: string;
  nonce?: string;
  tag?: string;
  alg?: string;
}

/** The signature base and the inner list that is both its last line and the `Signature-Input` member. */
interface SignatureBase {
  /** Lines joined with LF, no trailing LF; sign its UTF-8 bytes. */
  base: string;
  /** The serialised inner list, e.g. `("@authority" "content-digest");created=1;keyid="k"`. */
  signatureParams: string;
  /** The same inner list as a Structured Fields value, for `Signature-Input`. */
  innerList: InnerList;
}

const DERIVED = new Set(['@method', '@target-uri', '@authority', '@scheme', '@request-target', '@path', '@query']);

/**
 * A component as a Structured Fields Item (`"name";key="k"`), validated: names lower-case,
 * only known derived components, `key` only on header fields.
 * @throws TypeError naming the component when it is malformed or unsupported
 */
export function componentItem(component: Component): Item {
  const { name, key } = typeof component === 'string' ? { name: component, key: undefined } : component;
  if (name !== name.toLowerCase() || name.length === 0) throw new TypeError(`signature component ${JSON.stringify(name)} must be a non-empty lower-case name`);
  if (name.startsWith('@') && !DERIVED.has(name)) throw new TypeError(`signature component ${name} is not a supported derived component`);
  const params: Parameters = new Map();
  if (key !== undefined) {
    if (name.startsWith('@')) throw new TypeError(`signature component ${name} cannot take a key parameter`);
    params.set('key', key);
  }
  return [name, params];
}

/** The target URI without its fragment (RFC 9421 §2.2.2). */
function targetUri(message: HttpMessage): URL {
  const url = new URL(message.url);
  url.hash = '';
  return url;
}

/**
 * The value of one component in a message (§2.1, §2.2).
 * @throws Error when a covered field or dictionary member is absent (§2.5: the signer must fail)
 */
function componentValue(message: HttpMessage, item: Item): string {
  const [name, params] = item as [string, Parameters];
  const url = targetUri(message);
  switch (name) {
    case '@method': return message.method;
    case '@target-uri': return url.href;
    case '@authority': return url.host.toLowerCase();
    case '@scheme': return url.protocol.slice(0, -1).toLowerCase();
    case '@request-target': return `${url.pathname || '/'}${url.search}`;
    case '@path': return url.pathname || '/';
    case '@query': return url.search || '?';
    default: break;
  }
  const raw = message.headers.get(name);
  if (raw === null) throw new Error(`signature component "${name}" is not a header of the request`);
  // §2.1: leading and trailing whitespace stripped; Headers already joins repeated fields with `, `.
  const value = raw.trim();
  const key = params.get('key');
  if (key === undefined) return value;
  // §2.1.2: the member's value, re-serialised (parameters included), not the whole field.
  const member = parseDictionary(value).get(String(key));
  if (member === undefined) throw new Error(`signature component "${name}";key="${String(key)}": the dictionary has no such member`);
  return Array.isArray(member[0]) ? serializeInnerList(member as InnerList) : serializeItem(member as Item);
}

/**
 * Build the signature base of a message (RFC 9421 §2.5).
 * @param message the request (method, absolute URL, headers)
 * @param components the covered components, in order; each at most once
 * @param params the signature parameters, in the order they are to be serialised
 * @returns the base to sign and its `@signature-params` inner list
 * @throws TypeError for a malformed or repeated component; Error for one absent from the message
 */
export function buildSignatureBase(message: HttpMessage, components: readonly Component[], params: SignatureParams): SignatureBase {
  const items = components.map(componentItem);
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const id = serializeItem(item);
    if (seen.has(id)) throw new TypeError(`signature component ${id} is covered twice`);
    seen.add(id);
    lines.push(`${id}: ${componentValue(message, item)}`);
  }
  const paramMap: Parameters = new Map();
  for (const [name, value] of Object.entries(params) as [string, BareItem | undefined][]) {
    if (value === undefined) continue;
    if ((name === 'created' || name === 'expires') && !Number.isInteger(value)) throw new TypeError(`signature parameter ${name} must be an integer of seconds`);
    paramMap.set(name, value);
  }
  const innerList: InnerList = [items, paramMap];
  const signatureParams = serializeInnerList(innerList);
  lines.push(`"@signature-params": ${signatureParams}`);
  return { base: lines.join('\n'), signatureParams, innerList };
}
