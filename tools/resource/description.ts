// A collection as `npm run resource:create` reads it from its arguments:
//   <name> <field>:text(<min>..<max>) <field>:integer(<min>..[<max>]) … [--read <role>] [--write <role>]
// e.g. `planet planetName:text(2..50) mass:integer(0..)`. Every field is required; texts are searched as substrings.
export type Role = 'reader' | 'writer' | 'admin';

export interface Field {
  name: string;
  type: 'text' | 'integer';
  min: number;
  max: number;
  /**
   * Added to a collection that has records (npm run resource:add-field): null in the records stored before it, and
   * left out by the clients written before it, so neither a create nor a replacement requires it.
   */
  optional?: boolean;
}

export interface Collection {
  /** The path segment, XML root, table and descriptor name: lower case letters. */
  name: string;
  fields: Field[];
  read: Role;
  write: Role;
}

/** The largest int32: an integer field without an upper bound is a PostgreSQL `int`. */
const int32Max = 2147483647;
const roles: readonly Role[] = ['reader', 'writer', 'admin'];

export class DescriptionError extends Error {}

/** One `<name>:text(<min>..<max>)` or `<name>:integer(<min>..[<max>])`. */
export function parseField(argument: string): Field {
  const match = /^([a-z][A-Za-z0-9]*):(text|integer)\((-?\d+)\.\.(-?\d+)?\)$/.exec(argument);
  if (!match) {
    throw new DescriptionError(`"${argument}" is no field: write name:text(min..max) or name:integer(min..[max])`);
  }
  const [, name, type, min, max] = match as unknown as [string, string, Field['type'], string, string | undefined];
  if (type === 'text' && max === undefined) throw new DescriptionError(`${name}: a text needs a maximum length`);
  const bounds = { min: Number(min), max: max === undefined ? int32Max : Number(max) };
  if (bounds.min > bounds.max) throw new DescriptionError(`${name}: its minimum is above its maximum`);
  if (type === 'text' && bounds.min < 1) throw new DescriptionError(`${name}: a text needs at least 1 character`);
  if (type === 'integer' && (bounds.min < -int32Max - 1 || bounds.max > int32Max)) {
    throw new DescriptionError(`${name}: an integer lies within int32`);
  }
  return { name, type, ...bounds };
}

function role(value: string | undefined, option: string): Role {
  if (!roles.includes(value as Role)) throw new DescriptionError(`${option} takes one of ${roles.join(', ')}`);
  return value as Role;
}

export function parseDescription(args: readonly string[]): Collection {
  const [name = '', ...rest] = args;
  if (!/^[a-z]{2,30}$/.test(name)) {
    throw new DescriptionError(`"${name}" is no collection name: 2 to 30 lower case letters`);
  }
  const options: Record<string, string | undefined> = {};
  const fields: Field[] = [];
  for (let index = 0; index < rest.length; index += 1) {
    const argument = rest[index]!;
    if (argument.startsWith('--')) options[argument] = rest[(index += 1)];
    else fields.push(parseField(argument));
  }
  const unknown = Object.keys(options).filter((option) => !['--read', '--write'].includes(option));
  if (unknown.length) throw new DescriptionError(`unknown option ${unknown.join(', ')}`);
  if (!fields.some((each) => each.type === 'text')) throw new DescriptionError('a collection needs a text field');
  const names = fields.map((each) => each.name);
  if (new Set(names).size < names.length) throw new DescriptionError('two fields have one name');
  if (names.some((each) => ['version', `${name}Id`].includes(each))) {
    throw new DescriptionError(`version and ${name}Id are the server's fields`);
  }
  const read = role(options['--read'] ?? 'reader', '--read');
  return { name, fields, read, write: role(options['--write'] ?? 'admin', '--write') };
}

/** `planetName` → `PlanetName`. */
export const pascal = (text: string) => text[0]!.toUpperCase() + text.slice(1);
/** `planetName` → `planet_name`, as MikroORM names the column. */
export const snake = (text: string) => text.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** `planetName` → `planet name`, for messages. */
export const words = (text: string) => text.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
/** The component schema of a field's bounds: `PlanetName` for `planetName` of `planet`, else `PlanetMass`. */
export const fieldSchema = (collection: Collection, field: Field) =>
  field.name.startsWith(collection.name) ? pascal(field.name) : pascal(collection.name) + pascal(field.name);
