// axe-core run in a page: its violations of the WCAG 2.x A/AA rules and best practices, one line per rule.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeScript = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation { id: string; nodes: { target: string[] }[] }

/**
 * axe's violations on what the page shows now: `rule: where, where`; rules in `except` are left out. axe yields to the
 * page between its steps with `setTimeout(…, 0)`: on a page whose clock the test paused (`page.clock.pauseAt`), this
 * moves the clock on a millisecond at a time (Playwright's clock runs a 0 ms timer 1 ms later) until axe is done.
 */
export async function axeViolations(page: Page, except: string[] = [], { clockPaused = false } = {}):
  Promise<string[]> {
  await page.addScriptTag({ path: axeScript });
  let done = false;
  const run = page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)`)
    .finally(() => { done = true; });
  while (clockPaused && !done) await page.clock.runFor(1);
  const found = await run;
  return found.filter((violation) => !except.includes(violation.id))
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
