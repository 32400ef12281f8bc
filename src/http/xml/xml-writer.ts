// Writes one record's XML element straight into a string, as xml2js's builder writes it, at a list's row rate.
import type { Schema } from '../../contract/document.ts';
import { childSchemas, keyedMap, schemasNamed, type KeyedMap } from './xml-schema.ts';
import { toXmlName } from './xml-names.ts';

/**
 * Where in the contract an element is: whether it is a keyed map, and the places of its children, each worked out
 * once per name. xml2js's builder costs a tree of nodes per row and a schema lookup per property; a list of 100k
 * rows paid 6–9× its JSON's time for it. `test/xml/xml-writer.test.ts` checks this writer against the builder.
 */
class Place {
  readonly map: KeyedMap | undefined;
  readonly #schemas: Schema[];
  readonly #children = new Map<string, Place>();

  constructor(schemas: Schema[]) {
    this.#schemas = schemas;
    this.map = schemas.map(keyedMap).find(Boolean);
  }

  child(key: string): Place {
    let place = this.#children.get(key);
    if (place) return place;
    place = new Place(childSchemas(this.#schemas, key));
    // Names come from the contract's views; a bound keeps keys no schema names from growing it.
    if (this.#children.size < 1000) this.#children.set(key, place);
    return place;
  }
}

/** Array items follow no schema. */
const nowhere = new Place([]);
const roots = new Map<string, Place>();
const names = new Map<string, string>();

function nameOf(key: string): string {
  let name = names.get(key);
  if (name === undefined) {
    name = toXmlName(key);
    if (names.size < 10_000) names.set(key, name);
  }
  return name;
}

// Characters XML 1.0 cannot carry at all (§2.2), not even as references: written as U+FFFD rather than failing the
// response, as the builder's documents do (src/http/xml/xml-representation.ts).
const notXmlChar =
  // eslint-disable-next-line no-control-regex -- exactly the control characters XML 1.0 excludes
  /[\0-\x08\x0B\f\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex -- the same, and what an element's text escapes
const textToEscape = /[&<>\r\0-\x08\x0B\f\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex -- the same, and what an attribute's value escapes
const attributeToEscape = /[&<"\t\n\r\0-\x08\x0B\f\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** A value's text as the builder writes it in an element (xmlbuilder's `textEscape`). */
function elementText(value: unknown): string {
  const text = String(value);
  if (!textToEscape.test(text)) return text;
  return text.replace(notXmlChar, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/\r/g, '&#xD;');
}

/** A value's text as the builder writes it in an attribute (xmlbuilder's `attEscape`). */
function attributeText(value: unknown): string {
  const text = String(value);
  if (!attributeToEscape.test(text)) return text;
  return text.replace(notXmlChar, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
    .replace(/\t/g, '&#x9;').replace(/\n/g, '&#xA;').replace(/\r/g, '&#xD;');
}

/** `<name>content</name>`, or `<name/>` when there is no content (the builder writes an empty text as nothing). */
const wrap = (name: string, attributes: string, content: string) =>
  (content === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${content}</${name}>`);

/** The content of an element holding `value`: text, a keyed map's entries, an array's items or an object's children. */
function content(value: object, place: Place): string {
  let out = '';
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) out += element('item', item, nowhere);
    return out;
  }
  const { map } = place;
  if (map) {
    for (const [key, entry] of Object.entries(value)) {
      out += wrap(map.element, ` ${map.attribute}="${attributeText(key)}"`, elementText(entry));
    }
    return out;
  }
  for (const [key, child] of Object.entries(value)) out += element(nameOf(key), child, place.child(key));
  return out;
}

function element(name: string, value: unknown, place: Place): string {
  if (value === null || value === undefined) return `<${name} xsi:nil="true"/>`;
  return wrap(name, '', typeof value === 'object' ? content(value, place) : elementText(value));
}

/** A list item's element `root` (e.g. `sighting`), without the `xsi` declaration its list's element makes. */
export function xmlListItem(root: string, body: unknown): string {
  let place = roots.get(root);
  if (!place) roots.set(root, place = new Place(schemasNamed(root)));
  return element(root, body, place);
}
