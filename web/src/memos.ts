// The memo of each listed sighting. The contract's list view leaves the memo out, so the rows on screen read it from
// their detail view (`GET /sighting/{id}`), a few at a time, and each memo cell fills in as its answer comes.
import type { Context } from './context.ts';

/** Requests in flight at once: what a browser opens to one origin over HTTP/1.1. */
const parallel = 6;

/** Starts once the screen is shown and the browser is idle: the rows come first, their memos after. */
export async function fillMemos(ctx: Context, ids: number[], memos: Map<number, string>, container: HTMLElement): Promise<void> {
  const queue = ids.filter((id) => !memos.has(id));
  // This screen's signal: `ctx.screen` is the next screen's once the person moves on.
  const screen = ctx.screen;
  // Assistive technology (and a test) can tell the column is still filling in.
  container.setAttribute('aria-busy', 'true');
  await new Promise((resolve) => ('requestIdleCallback' in window ? requestIdleCallback(resolve, { timeout: 500 }) : setTimeout(resolve, 50)));
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined && !screen.aborted; id = queue.shift()) {
      const { data } = await ctx.api.GET('/sighting/{id}', { params: { path: { id } } });
      if (!data) continue;
      memos.set(id, data.sightingMemo);
      const cell = container.querySelector(`tr[data-sighting-id="${id}"] td.memo`);
      if (cell) cell.textContent = data.sightingMemo;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker)).catch(() => undefined);
  container.removeAttribute('aria-busy');
}
