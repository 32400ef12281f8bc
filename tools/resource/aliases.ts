// What the generators write into openapi.yaml without YAML aliases of maps or lists: OpenAPI Generator's YAML parser
// (snakeyaml) refuses a document with more than 50 of them (test/contract/yaml-aliases.test.ts), and every collection
// written with its own aliases (a header set per answer) would bring that limit nearer. A map the contract anchors
// (`&listHeaders` in `x-header-sets`, `&plainTextKeys`) is written out in full, as one flow map, where the hand-written
// part would alias it; scalar aliases (`*plainTextPattern`) are no such alias and stay.
import { isAlias, isCollection, parseDocument, stringify, visit } from 'yaml';

/** The contract's anchored maps and lists, by anchor name, each as a one-line flow collection. */
function anchoredCollections(contract: string): Map<string, string> {
  const document = parseDocument(contract);
  const written = new Map<string, string>();
  visit(document, {
    Node: (_key, node) => {
      if (isAlias(node) || !isCollection(node) || !node.anchor) return;
      written.set(node.anchor, stringify(node.toJSON(), { collectionStyle: 'flow', lineWidth: 0 }).trim());
    },
  });
  return written;
}

/** `text` (a part for `contract`) with each alias of one of the contract's anchored maps or lists written out. */
export function withoutAliases(contract: string, text: string): string {
  const written = anchoredCollections(contract);
  return text.replace(/\*([A-Za-z][\w-]*)/g, (alias, name: string) => written.get(name) ?? alias);
}
