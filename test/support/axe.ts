// axe-core run in a page: its violations of the WCAG 2.x A/AA rules and best practices, one line per rule.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeScript = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation { id: string; nodes: { target: string[] }[] }

/** axe's violations on what the page shows now: `rule: where, where`; rules in `except` are left out. */
export async function axeViolations(page: Page, except: string[] = []): Promise<string[]> {
  await page.addScriptTag({ path: axeScript });
  const found = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)`);
  return found.filter((violation) => !except.includes(violation.id))
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
