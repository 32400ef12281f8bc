// Parses an XML request body into a plain element tree: DTDs and entities refused before they cost anything, deep
// nesting before any recursion.
import { Parser } from 'xml2js';
import { BadRequest } from '../../errors/app-errors.ts';
import { bodyTooDeep, maxBodyDepth } from '../body-depth.ts';

export interface XmlAttribute {
  /** The qualified name as written, e.g. `xsi:nil`. */
  name: string;
  /** The namespace URI the prefix is bound to ('' for none). */
  uri: string;
  local: string;
  value: string;
}

export interface XmlElement {
  name: string;
  attributes: XmlAttribute[];
  children: XmlElement[];
  /** The element's own character data (text and CDATA, comments left out), exactly as sent. */
  text: string;
}

// Any markup declaration but a comment or CDATA section: `<!DOCTYPE`, `<!ENTITY`, `<!ELEMENT`, … (XXE, billion laughs).
const declaration = /<!(?!--|\[CDATA\[)/;
// Where `&` is only a character: comments, CDATA sections, processing instructions.
const literalSections = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g;
/**
 * A reference to anything but the five entities XML 1.0 §4.6 declares or a character reference (§4.1). Without a DTD
 * every other entity is undeclared, so the document is not well-formed; xml2js's sax would expand HTML's (`&nbsp;`)
 * and, case-blind, `&AMP;`, and xml2js has no option to make it strict.
 */
const undeclaredEntity = /&(?!(?:amp|lt|gt|apos|quot|#[0-9]+|#x[0-9a-fA-F]+);)/;

const options = {
  explicitRoot: true,
  explicitChildren: true,
  preserveChildrenOrder: true,
  charsAsChildren: true,
  includeWhiteChars: true,
  xmlns: true,
  strict: true,
  async: false,
};

type RawNode = { '#name': string; $?: Record<string, XmlAttribute>; $ns?: unknown; $$?: RawNode[]; _?: string };

/** The document's root element; a 400 with a `general` message when it is not one well-formed, harmless document. */
export function parseXml(text: string): XmlElement {
  if (declaration.test(text)) throw new BadRequest('error.xmlForbidden');
  if (text.includes('&') && undeclaredEntity.test(text.replace(literalSections,
    ''))) throw new BadRequest('error.malformedXml');
  const parser = new Parser(options);
  const results: unknown[] = [];
  let failed = false;
  parser.on('end', (result: unknown) => results.push(result));
  parser.on('error', () => { failed = true; });
  try {
    parser.parseString(text);
  } catch {
    failed = true;
  }
  // xml2js ends at the first root's end tag: a second root element shows as a second result.
  const root = results.length === 1 && results[0] ? Object.values(results[0] as Record<string, RawNode>)[0] : undefined;
  if (failed || !root) throw new BadRequest('error.malformedXml');
  return element(root, 1);
}

// xml2js builds its tree without recursion, in time linear in the body (which BODY_LIMIT bounds); this walk and every
// one after it recurse, so it refuses the depth before it goes deeper than any document of ours.
function element(node: RawNode, depth: number): XmlElement {
  if (depth > maxBodyDepth) throw bodyTooDeep();
  const children: XmlElement[] = [];
  let text = '';
  for (const child of node.$$ ?? []) {
    // Character data comes as `__text__` children without a namespace record; elements always have one.
    if (child.$ns === undefined) text += child._ ?? '';
    else children.push(element(child, depth + 1));
  }
  return { name: node['#name'], attributes: Object.values(node.$ ?? {}), children, text };
}
