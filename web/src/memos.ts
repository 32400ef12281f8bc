// The memo of each listed sighting. The contract's list view leaves the memo out, so the rows on screen read it from
// their detail view (`GET /sighting/{id}`), a few at a time, and each memo cell fills in as its answer comes.
import type { Context } from './context.ts';

/** Requests in flight at once: what a browser opens to one origin over HTTP/1.1. */
const parallel = 6;

export async function fillMemos(ctx: Context, ids: number[], memos: Map<number, string>, container: HTMLElement): Promise<void> {
  const queue = ids.filter((id) => !memos.has(id));
  // Assistive technology (and a test) can tell the column is still filling in.
  container.setAttribute('aria-busy', 'true');
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined && !ctx.screen.aborted; id = queue.shift()) {
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
