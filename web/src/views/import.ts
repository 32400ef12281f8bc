// Import: a CSV or JSON file of sightings (of vessels too, for an administrator) read in the page and previewed, then
// sent whole to `POST /{resource}/batch` once the person confirms; all or nothing. A refusal lists each bad record by
// its row and field in the person's language; a large file shows its upload, then that it is being stored.
import type { Context } from '../context.ts';
import { field, h } from '../dom.ts';
import { t } from '../i18n.ts';
import { number } from '../format.ts';
import { previewRows, readImportFile, type ImportFile } from '../import-file.ts';
import { upload } from '../upload.ts';
import { guardUnsaved, saved } from '../unsaved-guard.ts';

interface RecordError { record: number; field: string; message: string }
type BatchErrors = { records?: RecordError[]; _more?: number } & Record<string, unknown>;

const targets = {
  sighting: { path: '/sighting/batch', label: 'web.import.sightings', shown: '#mine' },
  vessel: { path: '/vessel/batch', label: 'web.import.vessels', shown: '#admin' },
} as const;
type Target = keyof typeof targets;

/** The 400's entries as rows of a table: row, field, message; a body-wide problem has no row. */
function problems(body: BatchErrors | undefined): { row?: number; field: string; message: string }[] {
  const fields = Object.entries(body ?? {}).filter(([name]) => name !== 'records' && name !== '_more')
    .map(([name, value]) => ({ field: name, message: (value as { message?: string }).message ?? String(value) }));
  return [...(body?.records ?? []).map((entry) => ({ row: entry.record, field: entry.field,
    message: entry.message })), ...fields];
}

function previewTable(file: ImportFile): HTMLElement {
  return h('table', { class: 'preview' },
    h('caption', {}, t('web.import.previewCaption', { shown: number(Math.min(previewRows, file.count)),
      count: number(file.count) })),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('web.import.row')),
      ...file.columns.map((column) => h('th', { scope: 'col' }, column)))),
    h('tbody', {}, ...file.preview.map((values, i) => h('tr', {}, h('th', { scope: 'row' }, number(i + 1)),
      ...values.map((value) => h('td', {}, value))))));
}

function errorTable(body: BatchErrors | undefined): HTMLElement {
  const rows = problems(body);
  return h('div', {},
    h('table', { class: 'import-errors' },
      h('caption', {}, t('web.import.errorsCaption')),
      h('thead', {}, h('tr', {}, ...['web.import.row', 'web.import.field', 'web.import.problem'].map((key) =>
        h('th', { scope: 'col' }, t(key))))),
      h('tbody', {}, ...rows.map((problem) => h('tr', {},
        h('td', {}, problem.row === undefined ? '' : number(problem.row)), h('td', {}, problem.field),
        h('td', {}, problem.message))))),
    body?._more !== undefined && h('p', {}, t('web.import.more', { count: number(body._more) })));
}

export function importView(ctx: Context): HTMLElement {
  const title = h('h1', { id: 'import-title' }, t('web.import.title'));
  if (!ctx.isWriter && !ctx.isAdmin) {
    return h('section', { 'aria-labelledby': 'import-title' }, title,
      h('p', { role: 'note' }, t('web.import.needsWriter')));
  }
  const screen = ctx.screen;
  const kinds: Target[] = [...(ctx.isWriter ? ['sighting' as const] : []), ...(ctx.isAdmin ? ['vessel' as const] : [])];
  const kind = h('select', { name: 'kind' },
    ...kinds.map((name) => h('option', { value: name }, t(targets[name].label))));
  const input = h('input', { type: 'file', name: 'file', accept: '.csv,.json,text/csv,application/json' });
  const chooser = field(t('web.import.file'), input, t('web.import.hint'));
  const preview = h('div', { class: 'import-preview' });
  const confirm = h('button', { type: 'button', class: 'primary', hidden: true });
  const status = h('p', { class: 'progress', role: 'status', 'data-testid': 'import-status' });
  const bar = h('progress', { max: 1, hidden: true, 'aria-label': t('web.import.progressLabel') });
  const outcome = h('div', { class: 'import-outcome' });
  let chosen: { file: ImportFile; key: string } | undefined;
  let sending = false;
  // A file chosen and not imported is work to keep, and so is an import under way.
  guardUnsaved(() => chosen !== undefined || sending, screen);

  const reset = () => {
    chosen = undefined;
    confirm.hidden = true;
    preview.replaceChildren();
  };
  input.addEventListener('change', async () => {
    reset();
    outcome.replaceChildren();
    chooser.error.hidden = true;
    input.removeAttribute('aria-invalid');
    const file = input.files?.[0];
    if (!file) return;
    const read = await readImportFile(file).catch(() => ({ problem: 'json' as const }));
    if (screen.aborted) return;
    if ('problem' in read) {
      chooser.error.textContent = read.problem === 'csvQuote' ? t('web.import.csvQuote', { line: number(read.line) })
        : t(read.problem === 'empty' ? 'web.import.empty' : 'web.import.notJson');
      chooser.error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    if (read.count === 0) {
      chooser.error.textContent = t('web.import.empty');
      chooser.error.hidden = false;
      return;
    }
    // One key per file's text: a retry after a lost answer stores the records once (the API replays its answer).
    chosen = { file: read, key: `"${crypto.randomUUID()}"` };
    preview.replaceChildren(previewTable(read));
    confirm.textContent = t('web.import.confirm', { count: number(read.count) });
    confirm.hidden = false;
  });

  confirm.addEventListener('click', async () => {
    if (!chosen || sending) return;
    const { file, key } = chosen;
    const target = targets[kind.value as Target];
    sending = true;
    confirm.hidden = true;
    outcome.replaceChildren();
    bar.hidden = false;
    bar.value = 0;
    status.textContent = t('web.import.uploading', { percent: '0' });
    const headers = { 'Content-Type': file.contentType, 'Idempotency-Key': key };
    const answer = await upload(ctx, target.path, file.text, headers, {
      onProgress: (sent) => {
        bar.value = sent;
        status.textContent = t('web.import.uploading', { percent: String(Math.floor(sent * 100)) });
      },
      // The bytes have left; what is left is the service's work: a bar without a value, words that say so.
      onUploaded: () => {
        bar.removeAttribute('value');
        status.textContent = t('web.import.storing', { count: number(file.count) });
      },
    }).catch(() => undefined);
    sending = false;
    bar.hidden = true;
    status.textContent = '';
    if (!answer) {
      confirm.hidden = false;
      outcome.replaceChildren(h('p', { class: 'form-error', role: 'alert' }, t('web.error.network')));
      return;
    }
    // Whatever the answer, this file has been dealt with: choosing it again (fixed) starts afresh.
    reset();
    input.value = '';
    if (answer.status === 201) {
      saved();
      const stored = (answer.body as unknown[] | undefined)?.length ?? file.count;
      outcome.replaceChildren(h('div', { class: 'notice', role: 'status' },
        h('p', {}, t('web.import.stored', { count: number(stored) })),
        h('p', {}, h('a', { href: target.shown }, t(kind.value === 'vessel' ? 'web.import.showVessels'
          : 'web.import.showSightings')))));
      outcome.querySelector('a')?.focus();
      return;
    }
    const body = answer.body as BatchErrors | undefined;
    const general = typeof body?.general === 'string' ? body.general : undefined;
    outcome.replaceChildren(h('div', { class: 'form-error', role: 'alert', tabindex: -1 },
      h('p', {}, t('web.import.nothingStored')),
      answer.status === 400 && !general ? errorTable(body) : h('p', {}, general ?? t('error.unknown')),
      h('p', {}, t('web.import.chooseAgain'))));
    outcome.querySelector<HTMLElement>('[tabindex="-1"]')?.focus();
  });

  return h('section', { 'aria-labelledby': 'import-title' }, title,
    h('p', {}, t('web.import.intro')),
    h('div', { class: 'import-form' },
      kinds.length > 1 && field(t('web.import.kind'), kind).wrapper,
      chooser.wrapper, preview, h('div', { class: 'actions' }, confirm), bar, status),
    outcome);
}
