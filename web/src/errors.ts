// Shows the API's error bodies next to the fields they name (docs/behaviour.md#errors), the rest in the form's general
// slot.
import type { ErrorBody } from './api.ts';

export interface ErrorSlots {
  /**
   * Error slot per wire field path (`sightingMemo`, `vessel`, `vesselName.de`); a longer path falls back to its prefix.
   */
  fields: Map<string, { error: HTMLElement; control: HTMLElement }>;
  general: HTMLElement;
}

export function clearErrors({ fields, general }: ErrorSlots): void {
  general.hidden = true;
  general.replaceChildren();
  for (const { error, control } of fields.values()) {
    error.hidden = true;
    error.textContent = '';
    control.removeAttribute('aria-invalid');
  }
}

function slotFor(fields: ErrorSlots['fields'], path: string) {
  for (let candidate = path; candidate;
    candidate = candidate.includes('.') ? candidate.slice(0, candidate.lastIndexOf('.')) : '') {
    const slot = fields.get(candidate);
    if (slot) return slot;
  }
  return undefined;
}

/** Puts each message by its field and moves the focus to the first field in error (or the general message). */
export function showErrors(slots: ErrorSlots, body: ErrorBody | undefined, fallback: string): void {
  clearErrors(slots);
  const entries = Object.entries(body ?? {}).filter(([, value]) => value !== undefined);
  if (entries.length === 0) entries.push(['general', fallback]);
  let first: HTMLElement | undefined;
  for (const [path, value] of entries) {
    const message = typeof value === 'string' ? value : value!.message;
    const slot = path === 'general' ? undefined : slotFor(slots.fields, path);
    if (slot) {
      slot.error.textContent = slot.error.textContent ? `${slot.error.textContent} ${message}` : message;
      slot.error.hidden = false;
      slot.control.setAttribute('aria-invalid', 'true');
      first ??= slot.control;
    } else {
      slots.general.append(Object.assign(document.createElement('p'), { textContent: message }));
      slots.general.hidden = false;
    }
  }
  (first ?? slots.general).focus();
}
