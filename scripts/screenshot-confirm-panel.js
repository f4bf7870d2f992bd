#!/usr/bin/env node
/**
 * Writes docs/confirm-panel.png: the demo contact page in Chromium with WebMCP on, after an agent
 * called `form.submit.capell-form-contact`, so the form is filled and the confirmation panel is open
 * beside it (a 1280×800 window: room beside the form; placement.ts).
 * Run after `npm run build`: `node scripts/screenshot-confirm-panel.js`.
 */
import { screenshotPanel } from './screenshot-panel.js';

await screenshotPanel({
  output: 'docs/confirm-panel.png',
  viewport: { width: 1280, height: 800 },
  tool: 'form.submit.capell-form-contact',
  input: {
    name: 'Ada Lovelace', email: 'ada@example.test', topic: 'repair',
    message: 'The sole of my Ridgeline trail runner came off after two weeks. Can you repair it?', newsletter: true,
  },
  open: (page, origin) => page.goto(`${origin}/contact`).then(() => undefined),
});
