/**
 * The system Chromium every suite drives (real Chromium, not a fake DOM): Debian's `chromium`, or
 * CHROMIUM_PATH. Playwright cannot download browsers on this machine, so there is no fallback:
 * without a browser the suites stop with the command that installs one.
 */
import { existsSync } from 'node:fs';

/** Path of the Chromium binary. @throws Error naming the install command when there is none. */
export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(`No Chromium found (looked at ${candidates.join(', ')}). Install it with: sudo apt-get update && sudo apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  return found;
}

/**
 * Flags for a headless Chromium on a machine with a closed network: no background requests,
 * component updates, sync or QUIC.
 */
export const QUIET_FLAGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'];

/**
 * `--enable-features=WebMCPTesting` turns on `document.modelContext` (without a flag Chromium 156
 * has no WebMCP at all).
 */
export const WEBMCP_FLAG = '--enable-features=WebMCPTesting';

/**
 * Playwright launch options for Chromium with WebMCP on or off.
 * @param {{ webmcp: boolean }} options
 */
export function launchOptions({ webmcp }) {
  return {
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', ...QUIET_FLAGS, ...(webmcp ? [WEBMCP_FLAG] : [])],
  };
}
