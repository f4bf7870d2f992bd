/**
 * The one options normaliser (src/start/config.ts, readOptions) that start(), the script tag and the
 * CLI share: defaults, ranges and words, and each problem named the way the option was given
 * (start()'s option name, or the script tag's data-* attribute and its text as written).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHTML } from 'linkedom';
import {
  DEFAULT_API_BASE, DEFAULT_CONFIRM_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, DEFAULT_WRITE_WAIT_MS, OPTION_RULES, normaliseOptions,
  readOptions, readScriptOptions, SCRIPT_MARKER, type OptionName,
} from '../../src/start/config.ts';

const ORIGIN = 'https://shop.example';

/** A real script element (linkedom) with the given attributes. */
function scriptWith(attributes: Record<string, string>): HTMLScriptElement {
  const text = Object.entries(attributes).map(([name, value]) => ` ${name}="${value.replace(/"/g, '&quot;')}"`).join('');
  const { document } = parseHTML(`<!doctype html><script ${SCRIPT_MARKER}${text}></script>`);
  return document.querySelector(`script[${SCRIPT_MARKER}]`) as unknown as HTMLScriptElement;
}

describe('readOptions: defaults', () => {
  it('applies every default when nothing is given, from start() or from a tag without attributes', () => {
    const expected = {
      apiBase: new URL(DEFAULT_API_BASE, ORIGIN), timeoutMs: DEFAULT_TIMEOUT_MS, confirmTimeoutMs: DEFAULT_CONFIRM_TIMEOUT_MS,
      writeWaitMs: DEFAULT_WRITE_WAIT_MS, log: 'warn', audit: 'warning', agentgate: false,
    };
    for (const reading of [readOptions({ values: {} }, ORIGIN), readOptions({ script: scriptWith({}) }, ORIGIN), readOptions({ script: null }, ORIGIN)]) {
      assert.deepEqual(reading.settings, expected);
      assert.deepEqual(reading.options, {});
      assert.deepEqual(reading.problems, []);
    }
  });

  it('treats undefined and null from start() as "use the default"', () => {
    const reading = readOptions({ values: { timeoutMs: undefined, log: null as never } }, ORIGIN);
    assert.equal(reading.settings.timeoutMs, DEFAULT_TIMEOUT_MS);
    assert.equal(reading.settings.log, 'warn');
    assert.deepEqual(reading.problems, []);
  });
});

describe('readOptions: the script tag', () => {
  it('reads each option from its data-* attribute (the dataset name of the option)', () => {
    const given = {
      'data-api-base': '/de/agent/v1/', 'data-timeout-ms': '5000', 'data-confirm-timeout-ms': '700', 'data-write-wait-ms': '250',
      'data-log': 'silent', 'data-audit': 'error', 'data-agentgate': '', 'data-agentgate-site-key': 'site_demo',
      'data-inspect': '', 'data-admin-registry': '',
    };
    assert.deepEqual(Object.values(OPTION_RULES).map((rule) => rule.attribute).sort(), Object.keys(given).sort());
    const reading = readOptions({ script: scriptWith(given) }, ORIGIN);
    assert.deepEqual(reading.options, { apiBase: '/de/agent/v1/', timeoutMs: 5000, confirmTimeoutMs: 700, writeWaitMs: 250, log: 'silent', audit: 'error', agentgate: true, agentgateSiteKey: 'site_demo', inspect: true, adminRegistry: true });
    assert.equal(reading.settings.apiBase.href, 'https://shop.example/de/agent/v1');
    assert.deepEqual(reading.problems, []);
  });

  it('drops each invalid option, keeps the others, and names the attribute and the value as written', () => {
    const reading = readOptions({ script: scriptWith({ 'data-timeout-ms': 'fast', 'data-log': 'silent', 'data-api-base': '//evil.example/x', 'data-audit': 'error' }) }, ORIGIN);
    assert.deepEqual(reading.options, { log: 'silent', audit: 'error' });
    assert.equal(reading.settings.timeoutMs, DEFAULT_TIMEOUT_MS);
    assert.equal(reading.settings.apiBase.href, 'https://shop.example/agent/v1');
    assert.deepEqual(reading.problems.map((problem) => problem.message), [
      'data-api-base="//evil.example/x" is not a same-origin path such as "/agent/v1"',
      'data-timeout-ms="fast" is not an integer from 1 to 600000 (ms)',
    ]);
    assert.deepEqual(reading.problems.map(({ option, attribute, given }) => ({ option, attribute, given })), [
      { option: 'apiBase', attribute: 'data-api-base', given: '//evil.example/x' },
      { option: 'timeoutMs', attribute: 'data-timeout-ms', given: 'fast' },
    ]);
  });

  it('refuses a data-api-base with an encoded slash, which a decoding proxy would resolve into another path', () => {
    const reading = readOptions({ script: scriptWith({ 'data-api-base': '/agent/v1%2f..%2f..%2fadmin' }) }, ORIGIN);
    assert.equal(reading.settings.apiBase.href, 'https://shop.example/agent/v1');
    assert.deepEqual(reading.problems.map((problem) => problem.message), ['data-api-base="/agent/v1%2f..%2f..%2fadmin" is not a same-origin path such as "/agent/v1"']);
  });

  it('checks each ms option against its own range, with its unit', () => {
    const cases: [OptionName, string, string][] = [
      ['timeoutMs', 'data-timeout-ms', '600001'], ['confirmTimeoutMs', 'data-confirm-timeout-ms', '0'], ['writeWaitMs', 'data-write-wait-ms', '2.5'],
    ];
    for (const [option, attribute, text] of cases) {
      const reading = readOptions({ script: scriptWith({ [attribute]: text }) }, ORIGIN);
      assert.equal(reading.problems.length, 1, option);
      assert.match(reading.problems[0]!.message, new RegExp(`^${attribute}="${text.replace('.', '\\.')}" is not an integer from 1 to \\d+ \\(ms\\)$`));
    }
    assert.equal(readOptions({ script: scriptWith({ 'data-confirm-timeout-ms': '3600000' }) }, ORIGIN).settings.confirmTimeoutMs, 3_600_000);
  });

  it('names the words an option takes', () => {
    const reading = readOptions({ script: scriptWith({ 'data-log': 'loud', 'data-audit': '' }) }, ORIGIN);
    assert.deepEqual(reading.problems.map((problem) => problem.message), [
      'data-log="loud" is not "warn" or "silent"',
      'data-audit="" is not "warning" or "error"',
    ]);
  });

  it('readScriptOptions gives the valid options as start() takes them', () => {
    assert.deepEqual(readScriptOptions(scriptWith({ 'data-timeout-ms': '5s', 'data-write-wait-ms': '250' }), ORIGIN), { writeWaitMs: 250 });
  });
});

describe('readOptions: start()', () => {
  it('names the option and the value given, as normaliseOptions throws it', () => {
    const document = { location: { href: `${ORIGIN}/contact` } } as unknown as Document;
    assert.deepEqual(readOptions({ values: { timeoutMs: 0 } }, ORIGIN).problems.map((problem) => problem.message), ['option "timeoutMs": 0 is not an integer from 1 to 600000 (ms)']);
    assert.throws(() => normaliseOptions({ document, timeoutMs: 'fast' as never }), { name: 'TypeError', message: 'capell-webmcp: option "timeoutMs": "fast" is not an integer from 1 to 600000 (ms)' });
    assert.throws(() => normaliseOptions({ document, log: 'loud' as never, apiBase: 'https://evil.example' }), { name: 'TypeError', message: /^capell-webmcp: option "apiBase": "https:\/\/evil\.example" is not a same-origin path/ });
  });

  it('takes start()\'s values as they are: no text conversion', () => {
    const reading = readOptions({ values: { timeoutMs: '5000' as never } }, ORIGIN);
    assert.equal(reading.problems.length, 1);
    assert.equal(reading.settings.timeoutMs, DEFAULT_TIMEOUT_MS);
  });
});

describe('readOptions: AgentGate', () => {
  it('switches discovery on with data-agentgate present or "true", off with "false", and names any other text', () => {
    assert.equal(readOptions({ script: scriptWith({ 'data-agentgate': '' }) }, ORIGIN).settings.agentgate, true);
    assert.equal(readOptions({ script: scriptWith({ 'data-agentgate': 'true' }) }, ORIGIN).settings.agentgate, true);
    assert.equal(readOptions({ script: scriptWith({ 'data-agentgate': 'false' }) }, ORIGIN).settings.agentgate, false);
    const reading = readOptions({ script: scriptWith({ 'data-agentgate': 'yes' }) }, ORIGIN);
    assert.equal(reading.settings.agentgate, false);
    assert.deepEqual(reading.problems.map((problem) => problem.message), ['data-agentgate="yes" is not present (or "true") to switch it on, "false" to leave it off']);
  });

  it('takes a site key of letters, digits, "_" and "-", and leaves it absent otherwise', () => {
    assert.equal(readOptions({ script: scriptWith({ 'data-agentgate-site-key': 'site_demo' }) }, ORIGIN).settings.agentgateSiteKey, 'site_demo');
    const reading = readOptions({ script: scriptWith({ 'data-agentgate-site-key': '../admin' }) }, ORIGIN);
    assert.equal('agentgateSiteKey' in reading.settings, false);
    assert.match(reading.problems[0]!.message, /^data-agentgate-site-key="\.\.\/admin" is not a site key matching/);
  });

  it('has no option through which the page could sign or pay for the agent: no signer, no price cap', () => {
    // The agent's key and money are the agent's (capell-webmcp/agent): a page that could give the
    // runtime a signer or a cap would decide for the agent.
    const reading = readOptions({ script: scriptWith({ 'data-max-price': '100 USD', 'data-signer': 'x' }) }, ORIGIN);
    assert.deepEqual(reading.options, {});
    assert.equal('maxPrice' in reading.settings, false);
    assert.equal(Object.keys(OPTION_RULES).some((name) => /signer|price/i.test(name)), false);
    const document = { location: { href: `${ORIGIN}/` } } as unknown as Document;
    const config = normaliseOptions({ document, signer: { alg: 'ed25519' }, maxPrice: '1 USD' } as never);
    assert.equal('signers' in config || 'signer' in config || 'maxPrice' in config, false);
  });
});

describe('readOptions: inspect', () => {
  it('is absent (off) unless given; data-inspect present or "true" switches it on, "false" leaves it off', () => {
    assert.equal('inspect' in readOptions({ script: scriptWith({}) }, ORIGIN).settings, false);
    assert.equal(readOptions({ script: scriptWith({ 'data-inspect': '' }) }, ORIGIN).settings.inspect, true);
    assert.equal(readOptions({ script: scriptWith({ 'data-inspect': 'true' }) }, ORIGIN).settings.inspect, true);
    assert.equal(readOptions({ script: scriptWith({ 'data-inspect': 'false' }) }, ORIGIN).settings.inspect, false);
    assert.equal(readOptions({ values: { inspect: true } }, ORIGIN).settings.inspect, true);
  });

  it('names the attribute and the value given when data-inspect is not a switch', () => {
    assert.deepEqual(readOptions({ script: scriptWith({ 'data-inspect': 'yes' }) }, ORIGIN).problems.map((problem) => problem.message),
      ['data-inspect="yes" is not present (or "true") to switch it on, "false" to leave it off']);
  });
});
