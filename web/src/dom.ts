// A tiny element builder: the page is plain DOM, no framework.
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | EventListener | null | undefined>;

/**
 * `h('button', { type: 'button', onclick: f }, 'Save')`; `on…` attributes are listeners, `false`/null leave one out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {},
  ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name in element && typeof value !== 'string')
      (element as unknown as Record<string, unknown>)[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === 'number' ? String(c) : c)));
  return element;
}

let sequence = 0;
/** A unique element id, for label `for` and `aria-describedby`. */
export const uid = (prefix: string): string => `${prefix}-${++sequence}`;

/** A labelled form control with an error slot below it, linked for screen readers. */
export function field(label: string, control: HTMLElement,
  hint?: Node | string): { wrapper: HTMLElement; error: HTMLElement } {
  control.id ||= uid('field');
  const error = h('p', { class: 'field-error', id: `${control.id}-error`, role: 'alert', hidden: true });
  const hintElement = hint === undefined ? null : h('p', { class: 'hint', id: `${control.id}-hint` }, hint);
  control.setAttribute('aria-describedby', [hintElement?.id, error.id].filter(Boolean).join(' '));
  const wrapper = h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintElement, error);
  return { wrapper, error };
}
