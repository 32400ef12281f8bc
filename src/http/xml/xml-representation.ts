// Writes bodies as XML (docs/xml.md#xml): root element = resource name, `<collection>` for lists, `<errors>` for
// errors; elements in the order of the JSON view, null as `xsi:nil="true"`, a language map as `<text xml:lang="…">`.
import { Builder } from 'xml2js';
import type { Schema } from '../../contract/document.ts';
import type { Representation } from '../representation.ts';
import { childSchemas, keyedMap, schemasNamed } from './xml-schema.ts';
import { toXmlName } from './xml-names.ts';
import { xsiNamespace } from './xml-to-value.ts';
import { xmlListItem } from './xml-writer.ts';

const builder = new Builder({ headless: true, renderOpts: { pretty: false } });
const declaration = '<?xml version="1.0" encoding="UTF-8"?>';
const nil = { $: { 'xsi:nil': 'true' } };

// Characters XML 1.0 cannot carry at all (§2.2), not even as references: written as U+FFFD rather than failing the
// response.
const notXmlChar =
  // eslint-disable-next-line no-control-regex -- exactly the control characters XML 1.0 excludes
  /[\0-\x08\x0B\f\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const text = (value: unknown) => String(value).replace(notXmlChar, '\uFFFD');

const schemasByRoot = new Map<string, Schema[]>();
const rootSchemas = (root: string) => schemasByRoot.get(root) ?? schemasByRoot.set(root, schemasNamed(root)).get(root)!;

/** The value in xml2js's builder notation; `nils` learns whether an `xsi:nil` was written. */
function node(value: unknown, schemas: Schema[], nils: { found: boolean }): unknown {
  if (value === null || value === undefined) {
    nils.found = true;
    return nil;
  }
  if (Array.isArray(value)) return { item: value.map((item) => node(item, [], nils)) };
  if (typeof value !== 'object') return text(value);
  const map = schemas.map(keyedMap).find(Boolean);
  if (map) {
    return { [map.element]: Object.entries(value).map(([key, entry]) => ({ $: { [map.attribute]: text(key) },
      _: text(entry) })) };
  }
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [toXmlName(key),
    node(child, childSchemas(schemas, key), nils)]));
}

/** The builder's element: documents are written by it; `xmlListItem` is checked against it (its test). */
export function element(root: string, body: unknown, declareXsi: boolean): string {
  const nils = { found: false };
  const content = node(body, rootSchemas(root), nils);
  const attributes = (content as { $?: object }).$;
  const withXsi = declareXsi && nils.found ? { ...(content as object), $: { 'xmlns:xsi': xsiNamespace, ...attributes } }
    : content;
  return builder.buildObject({ [root]: withXsi });
}

export const xmlRepresentation: Representation = {
  mediaType: 'text/xml',
  document: (root, body) => declaration + element(root, body, true),
  // A streamed list cannot know whether a null will come: its element always declares the prefix.
  listOpen: (collection) => `${declaration}<${collection} xmlns:xsi="${xsiNamespace}">`,
  // A list's rows by the writer made for them (src/http/xml/xml-writer.ts): the same text at a fraction of the cost.
  listItem: (root, body) => xmlListItem(root, body),
  listClose: (collection) => `</${collection}>`,
};
