// The frame around every screen: header with navigation, language and sign-in; the routes; the notice line.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { locale, locales, setLocale, t, type Locale } from '../i18n.ts';
import { recordView } from './record.ts';
import { mineView } from './mine.ts';
import { vesselSightingsView } from './vessel-sightings.ts';
import { searchView } from './search.ts';
import { editView } from './edit.ts';
import { adminVesselsView } from './admin-vessels.ts';
import { sightingPageView } from './sighting-page.ts';
import { importView } from './import.ts';
import { failureNotice, shownFine } from './failure.ts';
import { pendingDeletesRegion } from './pending-deletes.ts';
import { mayLeave } from '../unsaved-guard.ts';
import { progressLine, showProgress } from './progress.ts';

const languageNames: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

/**
 * `#vessel/-1` -> ['vessel', -1]; an id that is not a number counts as none. `#search?q=…`, `#mine?from=…` keep their
 * query apart.
 */
function parse(route: string): [string, number | undefined, URLSearchParams] {
  const [path = '', query = ''] = route.replace(/^#/, '').split('?');
  const [name = '', id] = path.split('/');
  const number = id === undefined || id === '' ? undefined : Number(id);
  return [name, Number.isSafeInteger(number) ? number : undefined, new URLSearchParams(query)];
}

async function screen(ctx: Context, route: string): Promise<HTMLElement> {
  const [name, id, query] = parse(route);
  if (!ctx.session.signedIn) {
    return h('section', { class: 'welcome', 'aria-labelledby': 'welcome-title' },
      h('h1', { id: 'welcome-title' }, t('web.title')),
      h('p', {}, t('web.welcome')),
      h('button',
        { type: 'button', class: 'primary', onclick: () => void ctx.session.signIn(route) }, t('web.signIn')));
  }
  if (name === 'vessel') return vesselSightingsView(ctx, id, query);
  if (name === 'search') return searchView(ctx, query);
  if (name === 'edit' && id !== undefined) return editView(ctx, id);
  if (name === 'sighting' && id !== undefined)
    return sightingPageView(ctx, id, query.has('version') ? Number(query.get('version')) : undefined);
  if (name === 'admin') return ctx.isAdmin ? adminVesselsView(ctx, id) : notAllowed();
  if (name === 'import') return importView(ctx);
  if (name === 'record') return recordView(ctx, Number(query.get('vessel') ?? '') || undefined);
  if (name === 'mine' || name === '') return mineView(ctx, query);
  return notFound(route);
}

/** An address the page has no screen for: said, with the way home, rather than another screen in its place. */
function notFound(route: string): HTMLElement {
  return h('section', { 'aria-labelledby': 'not-found-title' },
    h('h1', { id: 'not-found-title' }, t('web.notFound.title')),
    h('p', {}, t('web.notFound.text', { address: route })),
    h('p', {}, h('a', { href: '#mine' }, t('web.notFound.home'))));
}

/** A screen the person's roles do not open: said so, rather than another screen in its place. */
function notAllowed(): HTMLElement {
  return h('section', { 'aria-labelledby': 'denied-title' }, h('h1', { id: 'denied-title' }, t('web.denied.title')),
    h('p', { role: 'note' }, t('web.denied.admin')), h('p', {}, h('a', { href: '#mine' }, t('web.mine.title'))));
}

/**
 * `app`: what every screen shares. Each render hands its screen a context of its own whose `screen` signal is that
 * render's: a screen that finishes loading (or fails) after the person moved on cannot act on the screen shown now.
 */
export function shell(root: HTMLElement, app: Omit<Context, 'screen'>, onNavigate: () => void) {
  let pendingNotice: string | undefined;
  let rendering = 0;
  let shown = new AbortController();
  // The address of the screen shown: where a Back refused by the person returns to.
  let shownAddress = location.href;

  async function render(): Promise<void> {
    const turn = ++rendering;
    shownAddress = location.href;
    shown.abort();
    shown = new AbortController();
    const ctx: Context = { ...app, screen: shown.signal };
    onNavigate();
    document.documentElement.lang = locale();
    document.title = t('web.title');
    const notice = h('p', { class: 'notice', role: 'status' }, pendingNotice ?? '');
    pendingNotice = undefined;
    const loading = progressLine();
    // Until the screen has its own heading, the page's name stands in (every state has one, for screen readers).
    const main = h('main', { id: 'main', tabindex: -1 }, notice,
      h('h1', { class: 'visually-hidden' }, t('web.title')), loading);
    root.replaceChildren(header(), pendingDeletesRegion(), main);
    const loaded = showProgress(main, loading, t('web.loading'));
    // A technical message (a TypeError's "Failed to fetch") is no message for a person: say what they can do.
    const content = await screen(ctx, location.hash).catch(() => failureNotice(ctx, t('web.error.network'), 'h1'));
    if (turn !== rendering) return;
    loaded();
    if (!content.querySelector('.failure') && !content.matches('.failure')) shownFine();
    main.replaceChildren(notice, content);
    // Keyboard and screen-reader users land on the new screen's heading; back on a list, on the row they had opened.
    (main.querySelector('h1') as HTMLElement | null)?.setAttribute('tabindex', '-1');
    const returning = main.querySelector<HTMLElement>('[data-return-focus]');
    if (returning) {
      returning.focus();
      returning.scrollIntoView({ block: 'center' });
    } else (main.querySelector('h1') as HTMLElement | null)?.focus();
  }

  function header(): HTMLElement {
    const language = h('select', { id: 'language', 'aria-label': t('web.language') },
      ...locales.map((l) => h('option', { value: l, selected: l === locale() }, languageNames[l])));
    language.addEventListener('change', () => {
      // The screen is drawn again in the other language: typed work would go with it.
      if (!mayLeave()) {
        language.value = locale();
        return;
      }
      setLocale(language.value as Locale);
      void render();
    });
    const links: [string, string][] = [['#mine', t('web.nav.mine')],
      ...(app.isWriter ? [['#record', t('web.nav.record')] as [string, string]] : []), ['#vessel', t('web.nav.vessel')],
      ['#search', t('web.nav.search')],
      ...(app.isWriter || app.isAdmin ? [['#import', t('web.nav.import')] as [string, string]] : []),
      ...(app.isAdmin ? [['#admin', t('web.nav.admin')] as [string, string]] : [])];
    const current = parse(location.hash)[0] || 'mine';
    const user = app.session.claims.preferred_username;
    return h('header', {},
      // Not a `#main` link: the fragment is the route here.
      h('button',
        { type: 'button', class: 'skip', onclick: () => document.getElementById('main')?.focus() }, t('web.skip')),
      h('div', { class: 'brand' }, t('web.title')),
      app.session.signedIn && h('nav', { 'aria-label': t('web.nav.label') }, ...links.map(([href, label]) =>
        h('a', { href, 'aria-current': href.slice(1) === current ? 'page' : null }, label))),
      h('div', { class: 'account' }, language,
        app.session.signedIn && h('span', { class: 'user' }, user ?? ''),
        app.session.signedIn
          ? h('button', { type: 'button',
            onclick: async () => {
              if (!mayLeave()) return;
              await app.session.signOut();
              show('#', t('web.signedOut'));
            } }, t('web.signOut'))
          : h('button', { type: 'button', onclick: () => void app.session.signIn(location.hash) }, t('web.signIn'))));
  }

  function show(route: string, notice?: string, { replace = false } = {}): void {
    pendingNotice = notice;
    if (replace) {
      history.replaceState(null, '', route);
      void render();
    } else if (location.hash !== route && !(route === '#' && location.hash === '')) location.hash = route;
    else void render();
  }

  window.addEventListener('hashchange', () => {
    if (!mayLeave()) {
      // Back or Forward already moved the address: put the screen's back on top, the typed work still on screen.
      history.pushState(null, '', shownAddress);
      return;
    }
    void render();
  });
  // A link is asked about before it is followed, so a refusal leaves no history entry behind.
  root.addEventListener('click', (event) => {
    const link = (event.target as Element).closest?.('a[href^="#"]');
    if (link && !mayLeave()) event.preventDefault();
  }, { capture: true });
  return { show };
}
