// How a body is written in one media type: a whole document, or a list written item by item.
import type { CsvColumn } from './csv-columns.ts';

export interface Representation {
  mediaType: string;
  /** An export format's (CSV, JSON lines): the file name's extension of a download (`?download=true`). */
  extension?: string;
  /** A format whose list depends on the view's columns (CSV): the list's own writer for them. */
  forList?(columns: readonly CsvColumn[]): Representation;
  /** The whole body: `root` names the resource (or `errors`) for formats that need a root element. */
  document(root: string, body: unknown): string;
  /** `collection` names a list's element for formats that need one (`collection`, `versions`). */
  listOpen(collection: string): string;
  listItem(root: string, body: unknown, first: boolean): string;
  listClose(collection: string): string;
  /**
   * A whole list held in memory (a page), where the format writes it in one step: the same text as `listOpen`, each
   * `listItem` and `listClose` give.
   */
  wholeList?(items: readonly unknown[]): string;
}

export const jsonRepresentation: Representation = {
  mediaType: 'application/json',
  document: (_root, body) => JSON.stringify(body),
  listOpen: () => '[',
  listItem: (_root, body, first) => (first ? '' : ',') + JSON.stringify(body),
  listClose: () => ']',
  // One call: no item's text made and joined on its own.
  wholeList: (items) => JSON.stringify(items),
};
