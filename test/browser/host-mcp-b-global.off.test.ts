/**
 * `@mcp-b/global`, a WebMCP host seen in the wild, as the page's WebMCP host in Chromium without
 * the WebMCP flag, installed from its published browser bundle, which initialises when it runs: it
 * installs @mcp-b/webmcp-polyfill with the testing shim and puts its BrowserMcpServer on
 * `document.modelContext`. (The bundle, not the ESM entry: that one reaches
 * `@modelcontextprotocol/server/_shims`, whose browser build needs the `browser` export condition
 * the test server's resolver does not use; it then loads the Node shim, `node:process`.) The common
 * tests are mcp-b-host-suite.ts's; the MCP client's path is below.
 */
import '@mcp-b/global/iife';
import { describeMCPBHost } from './mcp-b-host-suite.ts';

describeMCPBHost('@mcp-b/global');
