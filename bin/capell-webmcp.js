#!/usr/bin/env node
/**
 * The `capell-webmcp` command (package.json `bin`): runs the CLI built from src/cli/cli.ts into
 * dist/cli.js by `npm run build`. Exit codes: 0 ok, 1 rejected / audit error, 2 usage or read error.
 */
let cli;
try {
  cli = await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli.js')) throw error;
  console.error('capell-webmcp: dist/cli.js is missing; run `npm run build` first');
  process.exit(2);
}
process.exitCode = await cli.runCLI(process.argv.slice(2));
