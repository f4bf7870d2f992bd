/**
 * The audit as a table: one row per rule (Capell Agent Schema, "Tool declarations": undeclared
 * interactive public surfaces are audit warnings; `agent_tools: none` with a human-readable reason
 * silences a surface; the audit can fail as an error). Each row is a real HTML document parsed in
 * Node with linkedom, the parser the CLI uses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHTML } from 'linkedom';
import { auditSurfaces, coverageOf, type AuditRoot } from '../../src/start/audit.ts';

const CONTACT_TOOL = { name: 'form.submit.enquiry', description: 'Send a message.', effect: 'write', binding: { type: 'form', target: 'enquiry' } };
const CART_TOOL = { name: 'cart.add', description: 'Add to cart.', effect: 'write', binding: { type: 'endpoint', target: '/cart' } };

type Row = { rule: string; body: string; declarations?: unknown[]; expected: { surface: string; message: RegExp }[] };

const rows: Row[] = [
  { rule: 'a page without forms or actions has no entry', body: '<p>Hello</p><a href="/x">x</a>', expected: [] },
  { rule: 'a form without a declaration is a warning', body: '<form id="notify"></form>', expected: [{ surface: 'form#notify', message: /^no tool declaration covers this form/ }] },
  { rule: 'a form targeted by a form-binding declaration is covered', body: '<form id="enquiry"></form>', declarations: [CONTACT_TOOL], expected: [] },
  { rule: 'a form-binding declaration that was rejected still covers its form', body: '<form id="enquiry"></form>', declarations: [{ ...CONTACT_TOOL, name: 'Contact Form', effect: 'read' }], expected: [] },
  { rule: 'a declaration of another binding type does not cover a form with its target as id', body: '<form id="pages"></form>', declarations: [{ name: 'site.search', binding: { type: 'search', target: 'pages' } }], expected: [{ surface: 'form#pages', message: /^no tool declaration covers this form/ }] },
  { rule: 'a form with a native toolname counts as declared', body: '<form id="book" toolname="book_table" tooldescription="Book a table"></form>', expected: [] },
  { rule: 'a form with an empty toolname is not declared', body: '<form id="book" toolname=""></form>', expected: [{ surface: 'form#book', message: /^no tool declaration/ }] },
  { rule: 'a form without an id is named by its index in document.forms', body: '<form id="a" data-agent-tools="none" data-agent-tools-reason="r"></form><form></form>', expected: [{ surface: 'form[1]', message: /^no tool declaration covers this form/ }] },
  { rule: 'data-agent-tools="none" with a reason silences a form', body: '<form id="newsletter" data-agent-tools="none" data-agent-tools-reason="Subscribing needs the visitor\'s own consent."></form>', expected: [] },
  { rule: 'data-agent-tools="none" without a reason is a warning', body: '<form id="newsletter" data-agent-tools="none"></form>', expected: [{ surface: 'form#newsletter', message: /^data-agent-tools="none": only "none" with a non-empty data-agent-tools-reason/ }] },
  { rule: 'data-agent-tools="none" with a blank reason is a warning', body: '<form id="newsletter" data-agent-tools="none" data-agent-tools-reason="   "></form>', expected: [{ surface: 'form#newsletter', message: /^data-agent-tools="none": / }] },
  { rule: 'another data-agent-tools value does not silence a surface', body: '<form id="newsletter" data-agent-tools="None" data-agent-tools-reason="r"></form>', expected: [{ surface: 'form#newsletter', message: /^data-agent-tools="None": only "none"/ }] },
  { rule: 'an action naming a declared tool is covered', body: '<button data-capell-action="cart.add">Add</button>', declarations: [CART_TOOL], expected: [] },
  { rule: 'an action naming an undeclared tool is a warning', body: '<button id="wish" data-capell-action="wishlist.add">Wish</button>', declarations: [CART_TOOL], expected: [{ surface: 'button#wish', message: /^no tool declaration covers this action \("wishlist\.add" is not declared\)/ }] },
  { rule: 'an action without a value is a warning named by its marker', body: '<a href="/x" data-capell-action>Share</a>', expected: [{ surface: 'a[data-capell-action=""]', message: /^no tool declaration covers this action, / }] },
  { rule: 'an action marked data-agent-tools="none" with a reason is silent', body: '<button data-capell-action="print.page" data-agent-tools="none" data-agent-tools-reason="Printing is for people.">Print</button>', expected: [] },
  { rule: 'surfaces are reported in document order', body: '<button data-capell-action="x.y"></button><form id="b"></form>', expected: [{ surface: 'button[data-capell-action="x.y"]', message: /action/ }, { surface: 'form#b', message: /form/ }] },
];

function documentOf(body: string): AuditRoot {
  return parseHTML(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`).document as unknown as AuditRoot;
}

describe('auditSurfaces: one row per rule', () => {
  for (const row of rows) {
    it(row.rule, () => {
      const entries = auditSurfaces(documentOf(row.body), coverageOf(row.declarations ?? []));
      assert.deepEqual(entries.map((entry) => entry.surface), row.expected.map((entry) => entry.surface));
      entries.forEach((entry, index) => {
        assert.equal(entry.level, 'warning');
        assert.match(entry.message, row.expected[index]!.message);
      });
    });
  }
});

describe('auditSurfaces: levels and coverage', () => {
  it('reports every entry as an error when the level is "error"', () => {
    const entries = auditSurfaces(documentOf('<form id="a"></form><form id="b" data-agent-tools="none"></form>'), coverageOf([]), 'error');
    assert.deepEqual(entries.map((entry) => entry.level), ['error', 'error']);
  });

  it('coverageOf ignores entries that are not declarations without throwing', () => {
    const coverage = coverageOf([null, 42, 'form.submit.x', [], { binding: { type: 'form', target: 7 } }, CONTACT_TOOL]);
    assert.deepEqual([...coverage.names], ['form.submit.enquiry']);
    assert.deepEqual([...coverage.formIds], ['enquiry']);
  });
});
