// One field added to a collection's TypeScript: a property (and a text's index) of its entity, a line of its
// descriptor's list of fields.
import { fieldLine, indexEntry, propertyLine } from './code-files.ts';
import type { Collection, Field } from './description.ts';

export class CodeShapeError extends Error {}

/** `lines` with `added` inserted before the first line equal to `closing` after the first line equal to `opening`. */
function insertInto(lines: string[], opening: string, closing: string, added: string, file: string): void {
  const open = lines.indexOf(opening);
  const close = open < 0 ? -1 : lines.indexOf(closing, open);
  if (close < 0) throw new CodeShapeError(`${file} has no "${opening.trim()}" … "${closing.trim()}": add it by hand`);
  lines.splice(close, 0, ...added.split('\n'));
}

/** The entity's source with the field's property after its others, and a text's trigram index after the others. */
export function entityWithField(source: string, collection: Collection, field: Field, file: string): string {
  const lines = source.split('\n');
  if (field.type === 'text') insertInto(lines, '  indexes: [', '  ],', indexEntry(collection.name, field), file);
  insertInto(lines, '  properties: {', '  },', propertyLine(collection, field), file);
  return lines.join('\n');
}

/** The descriptor's source with the field's line at the end of its list of fields. */
export function descriptorWithField(source: string, field: Field, file: string): string {
  const lines = source.split('\n');
  insertInto(lines, '  ...fromFields([', '  ]),', fieldLine(field), file);
  return lines.join('\n');
}
