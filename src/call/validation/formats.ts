/**
 * The `format`s the runtime asserts, decided in linear time: regular expressions run through the
 * linear matcher (linear-regex.ts), the rest is plain code. They replace @cfworker/json-schema's
 * own `format` table, whose regular expressions (its `url` above all) backtrack exponentially on
 * a near-miss. The regular expressions are @cfworker/json-schema 4.1's, minus lookarounds, which
 * became code (hostname's length) or an equivalent expression (url's private address ranges), so
 * the same values are accepted and refused.
 */
import { compileLinear, LinearRegex, VALIDATION_STEP_BUDGET, type StepBudget } from '../../shared/validation/linear-regex.js';

let budget: StepBudget = { left: VALIDATION_STEP_BUDGET };

/** Sets the budget every format and pattern check draws on until the next call (one per validator call). */
export function useBudget(next: StepBudget): void {
  budget = next;
}

/** A pattern test against the current budget; compiled on first use. Built-in formats are exempt from MAX_PATTERN_STATES. */
function linear(source: string, ignoreCase = true): (input: string) => boolean {
  let regex: LinearRegex | undefined;
  return (input) => {
    if (!regex) {
      const compiled = compileLinear(source, { ignoreCase, maxStates: 1 << 16 });
      if (!(compiled instanceof LinearRegex)) throw new Error(`format regex does not compile (${compiled.reason})`);
      regex = compiled;
    }
    return regex.test(input, budget);
  };
}

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isDate = linear('^\\d\\d\\d\\d-\\d\\d-\\d\\d$', false);
const isTime = linear('^\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?(?:z|[+-]\\d\\d:\\d\\d)?$');

function date(input: string): boolean {
  if (!isDate(input)) return false;
  const [year, month, day] = input.split('-').map(Number) as [number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay = month === 2 && leap ? 29 : DAYS[month];
  return month >= 1 && month <= 12 && day >= 1 && maxDay !== undefined && day <= maxDay;
}

// RFC 3339 full-time; a leap second (:60) only at 23:59 UTC.
function time(input: string): boolean {
  if (!isTime(input)) return false;
  const [hour, minute, second] = [0, 3, 6].map((at) => Number(input.slice(at, at + 2))) as [number, number, number];
  const zone = input.slice(8).replace(/^\.\d+/, ''); // '', 'z', or '+hh:mm' (a fixed-length tail: linear)
  if (zone === '') return false; // a full-time needs its offset
  const sign = zone[0] === '+' ? 1 : zone[0] === '-' ? -1 : 0;
  const offsetHour = sign ? Number(zone.slice(1, 3)) : 0;
  const offsetMinute = sign ? Number(zone.slice(4, 6)) : 0;
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  return (hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute) + 24 * 60) % (24 * 60) === 23 * 60 + 59;
}

function dateTime(input: string): boolean {
  const parts = input.split(/[t\s]/i); // one character at a time: linear
  return parts.length === 2 && date(parts[0]!) && time(parts[1]!);
}

const H16 = '[0-9a-f]{1,4}';
const DEC_OCTET = '(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)';
const IPV4 = `(?:${DEC_OCTET}\\.){3}${DEC_OCTET}`;
const IPV6_ADDRESS = `(?:(?:${H16}:){6}|::(?:${H16}:){5}|(?:${H16})?::(?:${H16}:){4}|(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}|(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}|(?:(?:${H16}:){0,3}${H16})?::${H16}:|(?:(?:${H16}:){0,4}${H16})?::)(?:${H16}:${H16}|${IPV4})|(?:(?:${H16}:){0,5}${H16})?::${H16}|(?:(?:${H16}:){0,6}${H16})?::`;
const PCHAR = "(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})";
/** RFC 3986 URI (`optionalScheme` false) or URI-reference (true: scheme and hier-part optional, `"` allowed), as @cfworker/json-schema writes them. */
const uriPattern = (optionalScheme: boolean): string => {
  const quote = optionalScheme ? '"' : '';
  const p = PCHAR.replace("'", `'${quote}`);
  return `^(?:[a-z][a-z0-9+\\-.]*:)${optionalScheme ? '?' : ''}(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:${IPV6_ADDRESS})|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|${IPV4}|(?:[a-z0-9\\-._~!$&'${quote}()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/${p}*)*|\\/(?:${p}+(?:\\/${p}*)*)?|${p}+(?:\\/${p}*)*)${optionalScheme ? '?' : ''}(?:\\?(?:[a-z0-9\\-._~!$&'${quote}()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'${quote}()*+,;=:@/?]|%[0-9a-f]{2})*)?$`;
};
const URI = linear(uriPattern(false));

// Written without lookahead: the first octets url refuses (10, 127, 169.254, 172.16–31, 192.168).
const OCTET = '\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])';
const PUBLIC_IPV4 = `(?:(?:[1-9]|1[1-9]|[2-9]\\d|1[013-58]\\d|12[0-689]|16[0-8]|17[013-9]|19[013-9]|2[01]\\d|22[0-3])${OCTET}${OCTET}|169\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-35])${OCTET}|192\\.(?:\\d{1,2}|1(?:[0-57-9]\\d|6[0-79])|2[0-4]\\d|25[0-5])${OCTET}|172\\.(?:\\d|0\\d|1[0-5]|3[2-9]|[4-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])${OCTET})\\.(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4])`;
const LABEL = '(?:[a-z\\u{00a1}-\\u{ffff}0-9]+-?)*[a-z\\u{00a1}-\\u{ffff}0-9]+';
const URL_ = `^(?:(?:https?|ftp):\\/\\/)(?:\\S+(?::\\S*)?@)?(?:${PUBLIC_IPV4}|(?:${LABEL})(?:\\.${LABEL})*(?:\\.(?:[a-z\\u{00a1}-\\u{ffff}]{2,})))(?::\\d{2,5})?(?:\\/[^\\s]*)?$`;

const HOSTNAME = linear('^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*$');
// The length check was a lookahead, (?=.{1,253}$).
const hostname = (input: string): boolean => input.length >= 1 && input.length <= 253 && HOSTNAME(input);
const ipv4 = linear(`^${IPV4}$`, false);
const ipv6 = linear('^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}))|:)))$');

const EMAIL_NAME = linear('^(?:"(?:[\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*"|[a-z0-9.!#$%&\'*+/=?^_`{|}~-]+)$');

function email(input: string): boolean {
  // The local part ends at the first unescaped closing quote, or else at the first "@".
  let at = input.indexOf('@');
  if (input[0] === '"') {
    for (let i = 1; i < input.length; i++) {
      if (input[i] === '\\') i++;
      else if (input[i] === '"') {
        at = i + 1;
        break;
      }
    }
  }
  if (at < 1 || input[at] !== '@') return false;
  const name = input.slice(0, at);
  const host = input.slice(at + 1);
  if (!EMAIL_NAME(name) || host === '' || /[\n\r\u2028\u2029]/.test(host) || name.length > 64 || host.length > 253) return false;
  if (name[0] !== '"' && (name[0] === '.' || name.endsWith('.') || name.includes('..'))) return false;
  if (host.startsWith('[') && host.endsWith(']')) {
    const address = host.slice(1, -1);
    return /^ipv6:/i.test(address) ? ipv6(address.slice(5)) : ipv4(address);
  }
  return hostname(host);
}

/** Regular-expression syntax: compiled (never run) with flag `u`; `\Z` is not ECMA-262. */
function regex(input: string): boolean {
  if (/[^\\]\\Z/.test(input)) return false;
  try {
    new RegExp(input, 'u');
    return true;
  } catch {
    return false;
  }
}

const NOT_URI_FRAGMENT = /[/:]/;

/**
 * Format name → check (`(value: string) => boolean`), for every format docs/declarations.md
 * lists as enforced. Each regular expression runs through the linear matcher and draws on the budget set
 * by `useBudget`; `StepBudgetExceeded` propagates to the validator's caller.
 */
export const LINEAR_FORMATS: Record<string, (input: string) => boolean> = {
  date,
  time,
  'date-time': dateTime,
  duration: linear('^P(?:\\d+W|(?:(?:\\d+Y(?:\\d+M(?:\\d+D)?)?|\\d+M(?:\\d+D)?|\\d+D)(?:T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S))?|T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S)))$', false),
  uri: (input) => NOT_URI_FRAGMENT.test(input) && URI(input),
  'uri-reference': linear(uriPattern(true)),
  'uri-template': linear('^(?:(?:[^\\x00-\\x20\\x7f"<>%\\\\^`{|}]|%[0-9a-f]{2})|\\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?:\\.(?:[a-z0-9_]|%[0-9a-f]{2})+)*(?::[1-9][0-9]{0,3}|\\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?:\\.(?:[a-z0-9_]|%[0-9a-f]{2})+)*(?::[1-9][0-9]{0,3}|\\*)?)*\\})*$'),
  url: linear(URL_),
  email,
  hostname,
  ipv4,
  ipv6,
  regex,
  uuid: linear('^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$'),
  'json-pointer': linear('^(?:\\/(?:[^~/]|~0|~1)*)*$', false),
  'json-pointer-uri-fragment': linear("^#(?:\\/(?:[a-z0-9_\\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$"),
  'relative-json-pointer': linear('^(?:0|[1-9][0-9]*)(?:#|(?:\\/(?:[^~/]|~0|~1)*)*)$', false),
};
