/**
 * A misspelt option must not compile (test/unit/package.test.ts asserts these error codes):
 * an object literal names an unknown option (TS2561, "Did you mean to write 'apiBase'?"), and a
 * variable with no known option at all is refused by weak-type detection (TS2559).
 */
import { start } from 'capell-webmcp';

start({ apiBse: '/x' });

const options = { apiBse: '/x' };
start(options);
