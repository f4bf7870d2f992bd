/**
 * The binding registry (src/shared/bindings/registry.ts) is complete: every row has a policy, an executor
 * for each effect it allows (which loads and is a function), and reason codes that each have a
 * text. Adding a binding type without one of these parts fails here.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BINDINGS, BINDING_TYPES, READ_BINDING_TYPES, WRITE_BINDING_TYPES, type BindingRow } from '../../src/shared/bindings/registry.ts';
import { REASON_TEXT } from '../../src/shared/declarations/reason-text.ts';
import type { Effect } from '../../src/shared/declarations/tool-spec.ts';
import { coverageOf } from '../../src/start/audit.ts';

const EFFECTS: readonly Effect[] = ['read', 'write'];
const ORIGIN = 'https://shop.example';
// Targets of every shape a declaration may carry, valid and not, for each type's check.
const SAMPLE_TARGETS = [
  'page', 'contact', 'pages', 'in-stock', '/agent/v1/products', '/hook?list=all', 'x', 'Contact', '#contact', 'a b',
  '/a b', '/x#y', '/a\\b', '//evil.example/x', '/\\evil', 'https://evil.example/x', '/a/../b', '/%2e%2e/b', 'form.contact', '.x',
];
const rows = Object.entries(BINDINGS) as [string, BindingRow][];

describe('binding registry', () => {
  it('lists the contract\'s binding types, in its order, and derives the read and write lists', () => {
    assert.deepEqual(BINDING_TYPES, ['inline', 'endpoint', 'search', 'property-query', 'form']);
    assert.deepEqual(READ_BINDING_TYPES, ['inline', 'endpoint', 'search', 'property-query']);
    assert.deepEqual(WRITE_BINDING_TYPES, ['endpoint', 'form']);
  });

  it("the audit counts a form covered by exactly the binding types whose row's page element is a form", () => {
    for (const [type, row] of rows) {
      const { formIds } = coverageOf([{ name: 'x.y', binding: { type, target: 'capell-form-contact' } }]);
      assert.equal(formIds.has('capell-form-contact'), row.pageElement?.tag === 'form', type);
    }
  });

  for (const [type, row] of rows) {
    describe(type, () => {
      it('has a policy: at least one allowed effect and a check function', () => {
        assert.ok(row.policy, `${type} has no policy`);
        assert.ok(row.policy.effects.length > 0, `${type} allows no effect`);
        for (const effect of row.policy.effects) assert.ok(EFFECTS.includes(effect), `${type} allows an unknown effect ${effect}`);
        assert.equal(typeof row.policy.check, 'function');
      });

      it('has a loadable executor function for each effect it allows, and none for another', async () => {
        for (const effect of EFFECTS) {
          const load = row.executors[effect];
          if (!row.policy.effects.includes(effect)) {
            assert.equal(load, undefined, `${type} has a ${effect} executor but its policy refuses ${effect}`);
            continue;
          }
          assert.equal(typeof load, 'function', `${type} allows ${effect} but has no ${effect} executor loader`);
          const executor = await load!();
          assert.equal(typeof executor, 'function', `${type}'s ${effect} loader did not give a function`);
        }
      });

      it('lists reason codes, each with a text in REASON_TEXT', () => {
        assert.ok(row.reasonCodes.length > 0, `${type} lists no reason codes`);
        for (const code of row.reasonCodes) {
          assert.equal(typeof (REASON_TEXT as Record<string, unknown>)[code], 'function', `${type}'s reason code ${code} has no text`);
        }
      });

      it('refuses an effect it does not allow on the field effect, and produces only its listed codes', () => {
        const produced = new Set<string>();
        for (const target of SAMPLE_TARGETS) {
          for (const effect of [...EFFECTS, undefined]) {
            const reasons = row.policy.check(target, effect, ORIGIN);
            for (const [, code] of reasons) produced.add(code);
            const onEffect = reasons.filter(([field]) => field === 'effect');
            if (effect === undefined || row.policy.effects.includes(effect)) {
              assert.deepEqual(onEffect, [], `${type} refused effect ${effect} although it allows it`);
            } else {
              assert.equal(onEffect.length, 1, `${type} did not refuse effect ${effect} (target ${target})`);
            }
          }
        }
        for (const code of produced) assert.ok(row.reasonCodes.includes(code as never), `${type}'s policy produced ${code}, which its row does not list`);
      });
    });
  }
});
