/**
 * The console's account of the Reports: what each rejects or flags, as `console.warn` lines. In
 * the registry's chunk, not in the start-up code: only a page with WebMCP ever logs.
 */
import type { RuntimeConfig } from '../start/config.js';
import type { Report } from '../start/report.js';

/**
 * A logger of Reports for one runtime: with `config.log: 'warn'`, each rejection and each audit
 * entry of a Report as a `console.warn` line (`[capell-webmcp] capell-island: tool "x" not
 * registered: …`, `[capell-webmcp] audit warning: …`), each distinct line once over the runtime's
 * life; with `'silent'`, nothing. Never throws for a Report's content.
 */
export function createReportLog(config: Pick<RuntimeConfig, 'log'>): (report: Report) => void {
  const logged = new Set<string>();
  const warn = (line: string) => {
    if (logged.has(line)) return;
    logged.add(line);
    console.warn(line);
  };
  return (report) => {
    if (config.log !== 'warn') return;
    for (const rejection of report.rejected) {
      warn(`[capell-webmcp] ${rejection.source}: tool ${JSON.stringify(rejection.name)} not registered: ${rejection.reasons.join('; ')}`);
    }
    for (const entry of report.audit) warn(`[capell-webmcp] audit ${entry.level}: ${entry.surface}: ${entry.message}`);
  };
}
