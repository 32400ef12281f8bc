// A sighting's own page: its fields, who else sighted its vessel, and its history (what changed, when, and for
// administrators by whom), each version viewable. Back (the browser's, or the link) returns to the list it came from.
import type { Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { number } from '../format.ts';
import { when } from './sighting-table.ts';
import { mayChange } from '../sighting-pages.ts';

type Sighting = Schemas['SightingDetail'];
type Entry = Schemas['SightingVersion'];

/** The fields a person reads, in the form's order: label and shown value. */
function fieldsOf(record: Sighting): [string, string][] {
  return [
    [t('web.sighting.vessel'), record.vessel.vesselName ?? `#${record.vessel.vesselId}`],
    [t('web.sighting.date'), when(record.sightingDate)],
    [t('web.sighting.timezone'), record.sightingTimezone ?? '–'],
    [t('web.sighting.memo'), record.sightingMemo],
  ];
}

const definitions = (record: Sighting) => h('dl', { class: 'record' },
  ...fieldsOf(record).flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]));

/** What an entry changed against the one before it: the labels of the fields that differ. */
function changed(entry: Entry, before: Entry | undefined): string {
  if (entry.change !== 'updated' || !entry.record || !before?.record) return '';
  const now = fieldsOf(entry.record);
  const then = fieldsOf(before.record);
  return now.filter(([, value], i) => value !== then[i]![1]).map(([label]) => label).join(', ');
}

export async function sightingPageView(ctx: Context, id: number, version: number | undefined): Promise<HTMLElement> {
  const title = h('h1', { id: 'sighting-title' }, t('web.sighting.title', { id }));
  const back = h('p', {}, h('a', { href: '#mine', onclick:
    (event: Event) => { if (history.length > 1) { event.preventDefault(); history.back(); } } }, t('web.action.back')));
  const [current, versions, changeable] = await Promise.all([
    ctx.api.GET('/sighting/{id}', { params: { path: { id } } }),
    ctx.api.GET('/sighting/{id}/versions', { params: { path: { id }, query: { limit: 100 } } }),
    // Edit is offered to who may save it (its creator, an administrator): not found out by a 403 on Save.
    mayChange(ctx, id),
  ]);
  const entries = versions.data ?? [];
  const shown = version === undefined ? current.data
    : entries.find((entry) => entry.version === version && entry.record)?.record ?? undefined;
  if (!shown) return h('section', { 'aria-labelledby': 'sighting-title' }, title, back,
    h('p', { role: 'alert' }, t('error.entityNotFound')));
  const observers = await ctx.api.GET('/vessel/{id}/observers', { params: { path: { id: shown.vessel.vesselId } } });
  const at = (instant: string) =>
    new Date(instant).toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'medium' });
  const history_ = h('table', { class: 'history' },
    h('caption', {}, t('web.history.title')),
    h('thead', {}, h('tr', {}, ...[t('web.history.version'), t('web.history.change'), t('web.history.at'),
      ...(ctx.isAdmin ? [t('web.history.by')] : []), t('web.history.fields')]
      .map((label) => h('th', { scope: 'col' }, label)))),
    h('tbody', {}, ...entries.map((entry, i) => h('tr', { 'data-version': entry.version },
      h('td', {}, entry.record
        ? h('a', {
          href: `#sighting/${id}?version=${entry.version}`,
          'aria-current': entry.version === shown.version && version !== undefined ? 'page' : null,
        }, t('web.history.show', { version: number(entry.version) }))
        : number(entry.version)),
      h('td', {}, t(`web.history.${entry.change}`)),
      h('td', {}, at(entry.changedAt)),
      ctx.isAdmin && h('td', {}, entry.changedBy ?? ''),
      h('td', {}, changed(entry, entries[i + 1]))))));
  const mayEdit = current.data && version === undefined && changeable;
  return h('section', { 'aria-labelledby': 'sighting-title' }, title, back,
    version !== undefined && h('p', { class: 'notice-version', role: 'note' }, t('web.history.viewing',
      { version: number(version) }), ' ', h('a', { href: `#sighting/${id}` }, t('web.history.current'))),
    definitions(shown),
    observers.data && h('p', { class: 'summary' }, t('web.vessel.count', { count: number(observers.data.sightings),
      observers: number(observers.data.observers), mine: number(observers.data.mine) })),
    mayEdit && h('p', {}, h('a', { href: `#edit/${id}`, class: 'button' }, t('web.action.edit'))),
    history_);
}
