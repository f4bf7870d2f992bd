/**
 * `@mcp-b/webmcp-polyfill`, a WebMCP host seen in the wild besides Chromium's own, as the page's
 * WebMCP host in Chromium without the WebMCP flag, installed as the package documents it
 * (`initializeWebMCPPolyfill()`, here with the testing shim), before the runtime starts. The tests
 * are mcp-b-host-suite.ts's.
 */
import { initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill';
import { describeMCPBHost } from './mcp-b-host-suite.ts';

initializeWebMCPPolyfill({ installTestingShim: true });

describeMCPBHost('@mcp-b/webmcp-polyfill');
