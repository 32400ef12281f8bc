// "My sightings", the signed-in landing screen: the person's own sightings, newest first.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { pagedSightings } from './paged-sightings.ts';

export async function mineView(ctx: Context): Promise<HTMLElement> {
  const status = h('p', { class: 'form-error', role: 'alert' });
  const list = await pagedSightings(ctx, { mine: true }, t('web.mine.none'), () => ctx.navigate('#mine', t('web.sighting.deleted')), status);
  return h('section', { 'aria-labelledby': 'mine-title' }, h('h1', { id: 'mine-title' }, t('web.mine.title')),
    ctx.isWriter && h('p', {}, h('a', { href: '#record', class: 'button primary' }, t('web.record.title'))),
    status, typeof list === 'string' ? h('p', { role: 'alert' }, list) : list);
}
