/**
 * The runtime's audit on real demo pages with WebMCP on (Capell Agent Schema, "Tool
 * declarations"): the undeclared back-in-stock form is a warning, the newsletter form marked
 * data-agent-tools="none" with a reason is silent, and data-audit="error" on the runtime's script
 * tag turns warnings into errors. Assertions name the surfaces the demo adds, not totals: the
 * contact form is covered once form.submit.capell-form-contact is declared.
 */
import type { Page } from '@playwright/test';
import { expect, readyReport, sharedTabTest as test } from './demo-fixture.ts';

const OUT_OF_STOCK = '/products/rolltop-backpack';

type AuditEntry = { level: string; surface: string; message: string };

async function auditOf(page: Page): Promise<AuditEntry[]> {
  return (await readyReport(page)).audit as AuditEntry[];
}

test.describe('the audit in the Report with WebMCP on', () => {
  test('warns about the undeclared back-in-stock form', async ({ page, demo }) => {
    await page.goto(`${demo.url}${OUT_OF_STOCK}`);
    const audit = await auditOf(page);
    expect(audit).toContainEqual({
      level: 'warning',
      surface: 'form#back-in-stock',
      message: 'no tool declaration covers this form, and it is not marked data-agent-tools="none"',
    });
  });

  test('is silent about the newsletter form marked data-agent-tools="none" with a reason', async ({ page, demo }) => {
    await page.goto(`${demo.url}${OUT_OF_STOCK}`);
    await expect(page.locator('form#newsletter')).toHaveAttribute('data-agent-tools', 'none');
    await expect(page.locator('form#newsletter')).toHaveAttribute('data-agent-tools-reason', /newsletter\.subscribe/);
    const audit = await auditOf(page);
    expect(audit.map((entry) => entry.surface)).not.toContain('form#newsletter');
  });

  test('has no back-in-stock entry on a product that is in stock', async ({ page, demo }) => {
    await page.goto(`${demo.url}/products/ridgeline-trail-runner`);
    const audit = await auditOf(page);
    expect(audit.map((entry) => entry.surface)).not.toContain('form#back-in-stock');
    expect(audit.map((entry) => entry.surface)).not.toContain('form#newsletter');
  });

  test('reports the entries as errors when the script tag says data-audit="error"', async ({ page, demo }) => {
    // The same page from the same server, with data-audit="error" added to the runtime's tag.
    await page.route(`${demo.url}${OUT_OF_STOCK}`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace('data-capell-webmcp ', 'data-capell-webmcp data-audit="error" ');
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${demo.url}${OUT_OF_STOCK}`);
    expect(await page.locator('script[data-capell-webmcp]').getAttribute('data-audit')).toBe('error');
    const audit = await auditOf(page);
    expect(audit).toContainEqual(expect.objectContaining({ level: 'error', surface: 'form#back-in-stock' }));
    expect(audit.every((entry) => entry.level === 'error')).toBe(true);
  });
});
