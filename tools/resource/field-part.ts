// One field added to a collection's part of openapi.yaml: its bounds schema, its place in the views, bodies and
// example (the XML wrappers and the change feed's events carry the views, so they follow), its list filter and sort.
import { withoutAliases } from './aliases.ts';
import { boundsSchema, exampleField, filterParameter, ref, viewField } from './contract-part.ts';
import { fieldSchema, pascal, type Collection, type Field } from './description.ts';

export class ContractShapeError extends Error {}

/** The lines of the block that starts at `header` (a path or a schema) up to the next line indented as little. */
function block(lines: readonly string[], header: string): { start: number; end: number } {
  const start = lines.indexOf(header);
  if (start < 0) throw new ContractShapeError(`openapi.yaml has no line "${header.trim()}"`);
  const indent = header.length - header.trimStart().length;
  let end = start + 1;
  while (end < lines.length && (lines[end] === '' || lines[end]!.length - lines[end]!.trimStart().length > indent)) {
    end += 1;
  }
  return { start, end };
}

/** Adds a property (and, `required`, its name in `required: [...]`) to the schema `name`. */
function addProperty(lines: string[], name: string, property: string, required: boolean): void {
  const { start, end } = block(lines, `    ${name}:`);
  const at = lines.slice(start, end).indexOf('      properties:');
  if (at < 0) throw new ContractShapeError(`${name} has no properties`);
  let after = start + at + 1;
  while (after < end && lines[after]!.startsWith('        ')) after += 1;
  lines.splice(after, 0, `        ${property}`);
  if (!required) return;
  const requiredAt = lines.slice(start, end).findIndex((line) => line.startsWith('      required: ['));
  if (requiredAt < 0) throw new ContractShapeError(`${name} has no required list`);
  lines[start + requiredAt] = lines[start + requiredAt]!.replace(/\]$/, `, ${property.split(':')[0]}]`);
}

/** Adds the field's filter before the version's, and the field to the sort's list and pattern, in a list's path. */
function addListParameters(lines: string[], path: string, collection: Collection, field: Field): void {
  const { start, end } = block(lines, `  ${path}:`);
  const inPath = (test: (line: string) => boolean) => {
    const at = lines.slice(start, end).findIndex(test);
    return at < 0 ? -1 : start + at;
  };
  const versionFilter = inPath((line) => line.startsWith('        - { name: version, in: query'));
  if (versionFilter < 0) throw new ContractShapeError(`${path} has no version filter`);
  lines.splice(versionFilter, 0, `        - ${filterParameter(collection, field)}`);
  const sort = inPath((line) => line.startsWith('        - { name: sort, in: query'));
  if (sort < 0) return;
  lines[sort] = lines[sort]!
    .replace(/(Sortable: [^.]*)\./, `$1, \`${field.name}\`.`)
    .replace(/pattern: '\^-\?\(([^)]*)\)\(,-\?\(([^)]*)\)\)\*\$'/,
      (_, first: string, second: string) => `pattern: '^-?(${first}|${field.name})(,-?(${second}|${field.name}))*$'`);
}

/**
 * The export's examples in a path carry every column of its rows: the field is added at their end, as null (an empty
 * CSV cell), as the rows of records stored before it are.
 */
function addToExportExamples(lines: string[], path: string, field: Field): void {
  const { start, end } = block(lines, `  ${path}:`);
  let media = '';
  for (let at = start; at < end; at++) {
    const text = lines[at]!.trim();
    if (/^[\w./+-]+:$/.test(text)) media = text.slice(0, -1);
    const example = /^(\s*example: )(.*)$/.exec(lines[at]!);
    if (!example) continue;
    if (media === 'application/x-ndjson') {
      lines[at] = example[1] + JSON.stringify({ ...JSON.parse(example[2]!) as object, [field.name]: null });
    } else if (media === 'text/csv') {
      const [header, row, ...rest] = (JSON.parse(example[2]!) as string).split('\r\n');
      lines[at] = example[1] + JSON.stringify([`${header},${field.name}`, `${row},`, ...rest].join('\r\n'));
    }
  }
}

/** openapi.yaml with `field` added to `collection`'s paths and schemas. */
export function withField(contract: string, collection: Collection, field: Field): string {
  const type = pascal(collection.name);
  const lines = contract.split('\n');
  const own = `    ${fieldSchema(collection, field)}:`;
  if (lines.includes(own)) throw new ContractShapeError(`openapi.yaml already has ${own.trim()}`);
  const listItem = lines.indexOf(`    ${type}ListItem:`);
  if (listItem < 0) throw new ContractShapeError(`openapi.yaml has no ${type}ListItem`);
  lines.splice(listItem, 0, ...boundsSchema(collection, field).split('\n'));
  const bounded = ref('schemas', fieldSchema(collection, field));
  addProperty(lines, `${type}ListItem`, `${field.name}: ${viewField(field)}`, true);
  addProperty(lines, `${type}Detail`, `${field.name}: ${viewField(field)}`, true);
  addProperty(lines, `${type}Create`, `${field.name}: ${bounded}`, !field.optional);
  addProperty(lines, `${type}Update`, `${field.name}: ${bounded}`, !field.optional);
  addProperty(lines, `${type}Example`, `${field.name}: ${withoutAliases(contract, exampleField(collection, field))}`,
    false);
  addProperty(lines, `${type}Patch`, `${field.name}: ${bounded}`, false);
  addListParameters(lines, `/${collection.name}`, collection, field);
  addListParameters(lines, `/${collection.name}/detail-view`, collection, field);
  for (const below of ['', '/detail-view', '/qbe']) addToExportExamples(lines, `/${collection.name}${below}`, field);
  return lines.join('\n');
}
