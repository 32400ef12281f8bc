// "Who else saw it": the sightings of one vessel (`?vesselId=`), how many there are and how many are yours (`&mine=true`).
import type { Context } from '../context.ts';
import { field, h } from '../dom.ts';
import { t } from '../i18n.ts';
import { sightingTable } from './sighting-table.ts';

export async function vesselSightingsView(ctx: Context, vesselId: number | undefined): Promise<HTMLElement> {
  const vessels = await ctx.vessels();
  const picker = h('select', { name: 'vessel' }, h('option', { value: '' }, t('web.vessel.choose')),
    ...vessels.map((v) => h('option', { value: v.vesselId }, v.vesselName ?? `#${v.vesselId}`)));
  picker.value = vesselId === undefined ? '' : String(vesselId);
  picker.addEventListener('change', () => ctx.navigate(picker.value ? `#vessel/${picker.value}` : '#vessel'));
  const section = h('section', { 'aria-labelledby': 'vessel-title' }, h('h1', { id: 'vessel-title' }, t('web.vessel.title')),
    field(t('web.sighting.vessel'), picker).wrapper);
  if (vesselId === undefined) return section;

  const [all, own] = await Promise.all([
    ctx.api.GET('/sighting', { params: { query: { vesselId } } }),
    ctx.api.GET('/sighting', { params: { query: { vesselId, mine: true } } }),
  ]);
  if (!all.data || !own.data) {
    const error = (all.error ?? own.error) as { general?: string } | undefined;
    section.append(h('p', { role: 'alert' }, error?.general ?? t('error.unknown')));
    return section;
  }
  const mine = new Set(own.data.map((s) => s.sightingId));
  const status = h('p', { class: 'form-error', role: 'alert' });
  const summary = h('p', { class: 'summary', 'data-testid': 'vessel-summary' }, t('web.vessel.count', { count: all.data.length, mine: mine.size }));
  const table = sightingTable(ctx, all.data, mine, () => ctx.navigate(`#vessel/${vesselId}`, t('web.sighting.deleted')), status);
  section.append(summary, status, all.data.length ? table : h('p', {}, t('web.vessel.none')),
    h('p', {}, h('a', { href: '#record', class: 'button' }, t('web.record.title'))));
  return section;
}
