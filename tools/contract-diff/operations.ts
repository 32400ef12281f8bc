// The operations of a contract, each with its parameters merged from the path item, keyed so that the same
// operation is found in two versions even when a path parameter was renamed.
import { isNode, type Contract, type Node } from './document.ts';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface Operation {
  /** `GET /sighting/{id}` as this version spells it. */
  label: string;
  node: Node;
  /** By `<in> <name>`; path parameters by their position in the path (`path #1`), headers in lower case. */
  parameters: Map<string, Node>;
  /**
   * The parameters' ids (and `request body`) in the order OpenAPI Generator gives a method's arguments: the
   * operation's own in declared order, then the path item's it does not override, then the body; required before
   * optional (`sortParamsByRequiredFlag`, on by default), otherwise in that order.
   */
  positions: string[];
}

export function operationsOf(contract: Contract): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  const paths = isNode(contract.root.paths) ? contract.root.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = contract.resolve(rawItem).node;
    const positions = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    const key = path.replace(/\{[^}]+\}/g, '{}');
    for (const method of methods) {
      const node = item[method];
      if (!isNode(node)) continue;
      const idOf = (parameter: Node) => {
        const name = String(parameter.name);
        const where = String(parameter.in);
        return where === 'path' ? `path #${positions.indexOf(name) + 1}`
          : `${where} ${where === 'header' ? name.toLowerCase() : name}`;
      };
      const own = listOf(node.parameters).map((raw) => contract.resolve(raw).node);
      const inherited = listOf(item.parameters).map((raw) => contract.resolve(raw).node)
        .filter((parameter) => !own.some((mine) => idOf(mine) === idOf(parameter)));
      // Operation parameters override the path item's of the same name and location (OpenAPI 3.1 §4.8.9).
      const parameters = new Map([...inherited, ...own].map((parameter) => [idOf(parameter), parameter]));
      const body = contract.resolve(node.requestBody).node;
      const argumentsInOrder = [...own, ...inherited].map((parameter) => ({ id: idOf(parameter), node: parameter }));
      if (contentOf(body).size) argumentsInOrder.push({ id: 'request body', node: body });
      const required = (argument: { node: Node }) => (argument.node.required === true ? 0 : 1);
      const order = argumentsInOrder.sort((a, b) => required(a) - required(b)).map((argument) => argument.id);
      operations.set(`${method.toUpperCase()} ${key}`,
        { label: `${method.toUpperCase()} ${path}`, node, parameters, positions: order });
    }
  }
  return operations;
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A `content` map's entries (request body, response, parameter or header) by media type. */
export function contentOf(node: Node): Map<string, Node> {
  const content = isNode(node.content) ? Object.entries(node.content) : [];
  return new Map(content.filter((entry): entry is [string, Node] => isNode(entry[1])));
}
