/**
 * The CLI's verdict on a page's Capell tools islands, in the browser: the same modules and the same
 * order as `capell-webmcp check` (src/cli/cli.ts, `check`): each island read by `readIslands`
 * (start/read-islands.ts), each declaration through `normaliseCapellDeclaration` (every rule
 * loaded, the `$ref` checks included), then `registrationRefusal` with one NameClaims across the
 * islands in document order (first name wins, the runtime's own names reserved, WebMCP's name
 * limits, a form already a native tool). `check` also lists form tools whose form is missing:
 * that is a lint of the page, not a rule of registration (the runtime registers such a tool and
 * its call answers that the form is missing), so it is not part of this verdict.
 */
import { normaliseCapellDeclaration } from '../../../src/shared/declarations/normalise.ts';
import { NameClaims, registrationRefusal } from '../../../src/shared/registration-rules.ts';
import { readIslands } from '../../../src/start/read-islands.ts';

/** What the CLI would register from `doc`'s islands, and the declarations its checker threw on (it must never throw). */
export interface CLIVerdict {
  accepted: Set<string>;
  threw: string[];
}

/** The CLI's verdict on `doc`'s Capell tools islands for a page at `origin`. */
export function cliVerdict(doc: Document, origin: string): CLIVerdict {
  const accepted = new Set<string>();
  const threw: string[] = [];
  const claims = new NameClaims();
  readIslands(doc).forEach((unit, index) => {
    const label = `capell-island[${index}]`;
    if (unit.problem) return;
    unit.declarations.forEach((declaration, position) => {
      try {
        const result = normaliseCapellDeclaration(declaration, { source: label, origin, messages: unit.messages });
        if (result.ok && registrationRefusal(result.spec, label, claims, doc) === undefined) accepted.add(result.spec.name);
      } catch (error) {
        threw.push(`${label} tools[${position}]: ${String((error as Error)?.message ?? error)}`);
      }
    });
  });
  return { accepted, threw };
}
