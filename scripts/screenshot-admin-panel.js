#!/usr/bin/env node
/**
 * Writes docs/admin-confirm-panel.png: the demo admin's dashboard in Chromium with WebMCP on, an
 * editor (ada) signed in through the sign-in form, after an agent called Capell's
 * `admin.page.terms.write`, so the panel shows Capell's preview. Run after `npm run build`:
 * `node scripts/screenshot-admin-panel.js`.
 */
import { screenshotPanel } from './screenshot-panel.js';

await screenshotPanel({
  output: 'docs/admin-confirm-panel.png',
  viewport: { width: 900, height: 1000 },
  tool: 'admin.page.terms.write',
  input: { page_id: 810702, term_ids: [810404] },
  // Signed in as ada through the sign-in form.
  open: async (page, origin) => {
    await page.goto(`${origin}/admin/sign-in`);
    await page.selectOption('#actor', 'ada');
    await page.fill('#password', 'demo-ada');
    await Promise.all([page.waitForURL(`${origin}/admin/`), page.click('button[type="submit"]')]);
  },
});
