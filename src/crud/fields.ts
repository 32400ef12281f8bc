// A collection's fields declared once, and the descriptor's views and values derived from them.
import type { Locale } from '../i18n/messages.ts';
import type { View, ViewQuery, ViewRow, WireRecord } from './resource-descriptor.ts';
import { rootFields } from './root-alias.ts';
import type { RecordEndCell } from '../http/csv-record-ends.ts';

/**
 * One field on the wire: what a view query reads for it, how a view row becomes its wire value, and what a
 * validated body writes for it. The plain case is `field(name)`; a field whose value is not one column of the
 * collection's own row (a language map, a reference) says here what it reads and writes instead.
 */
export interface Field {
  /** The name on the wire. */
  name: string;
  /** The views that show it, in the order of the list of fields. */
  views: readonly View[];
  /** Fields of the root the view query selects for it, as the QueryBuilder takes them (`sightingDate`, `vessel_id`). */
  rootFields(view: View): readonly string[];
  /**
   * Columns it selects beyond the root's, after every field's root fields (a joined table's). With the request's
   * `locale`, a field whose value depends on it may select that value alone (a vessel's name in that language).
   */
  joinedColumns?(view: View, locale?: Locale): readonly string[];
  /** The joins those columns need, after every field's columns are selected. */
  join?(qb: ViewQuery, view: View, locale?: Locale): ViewQuery;
  /** Its wire value from a view row. */
  read(row: ViewRow, locale: Locale, view: View): unknown;
  /**
   * Sets in `data` the entity data it writes from a validated body; a field the server keeps (id, version) writes none.
   * Into one object for all the fields, not an object each to merge: a write makes it once per request.
   */
  write?(body: WireRecord, data: Record<string, unknown>): void;
  /**
   * Its wire values as SQL over a view row (`row` below), by CSV column name (`vessel.vesselName`): what an export
   * has PostgreSQL write (src/crud/read/copied-export.ts), the same text `read` gives. A field without them (a
   * language map, a column per language) is exported by the service itself.
   */
  sqlCells?(view: View): Readonly<Record<string, string>> | undefined;
  /**
   * Of its `sqlCells`, those PostgreSQL writes for less where the cell ends a record, and the service finishes
   * (src/http/csv-record-ends.ts).
   */
  recordEndCells?(view: View): Readonly<Record<string, RecordEndCell>>;
}

/** A view row's column in a field's `sqlCells`: the export selects from the view query named `row`. */
export const rowColumn = (column: string): string => `"row"."${column}"`;

/** How a plain field differs from a text or number written and read as it is. */
export interface FieldOptions {
  /** Shown in the detail view only (a list leaves it out). */
  detailOnly?: boolean;
  /** Its entity property, when it has another name than on the wire. */
  property?: string;
  /** The column a view row holds it in; the property in snake case unless said. */
  column?: string;
  /** Its wire value from the column's; the column's own unless said. */
  read?(value: unknown): unknown;
  /** The stored value from the body's; the body's own (null when absent) unless said. `false`: the server keeps it. */
  write?: ((value: unknown) => unknown) | false;
  /**
   * Its wire text in SQL from the column's (`rowColumn`): what `read` gives, as PostgreSQL writes it. The column's own
   * when `read` is not said; a field with a `read` and no `sqlText` has no `sqlCells`.
   */
  sqlText?(column: string): string;
  /** Its cell as PostgreSQL writes it for less where it ends a record, and how the service finishes it there. */
  recordEnd?(column: string): RecordEndCell;
}

/** `sightingDate` → `sighting_date`, as MikroORM names the column. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A field that is one column of the collection's own row. */
export function field(name: string, options: FieldOptions = {}): Field {
  const property = options.property ?? name;
  const column = options.column ?? snakeCase(property);
  // A replacement sets every field: one the body leaves out (an optional one) is stored as null.
  const { read = (value: unknown) => value, write = (value: unknown) => value ?? null } = options;
  const sqlText = options.sqlText ?? (options.read ? undefined : (text: string) => text);
  return {
    name,
    views: options.detailOnly ? ['detail'] : ['list', 'detail'],
    rootFields: () => [property],
    read: (row) => read(row[column]),
    ...sqlText && { sqlCells: () => ({ [name]: sqlText(rowColumn(column)) }) },
    ...options.recordEnd && { recordEndCells: () => ({ [name]: options.recordEnd!(rowColumn(column)) }) },
    ...write === false ? {} : { write: (body: WireRecord, data: Record<string, unknown>) => {
      data[property] = write(body[name]);
    } },
  };
}

/** The collection's id: a `bigint` column, which `pg` hands over as text. */
export const idField = (name: string): Field => field(name, { read: Number, sqlText: (id) => id, write: false });

/** The record's version, which a detail shows and the server alone changes. */
export const versionField = (): Field => field('version', { detailOnly: true, write: false });

/** The descriptor's view queries, views and values, as `src/crud/resource-descriptor.ts` declares them. */
export interface DerivedFromFields {
  selectView(qb: ViewQuery, view: View, locale?: Locale): ViewQuery;
  listView(row: ViewRow, locale: Locale): WireRecord;
  detailView(row: ViewRow, locale: Locale): WireRecord;
  values(body: WireRecord): Record<string, unknown>;
  sqlCells(view: View): Readonly<Record<string, string>> | undefined;
  recordEndCells(view: View): Readonly<Record<string, RecordEndCell>>;
}

/**
 * Derives what the generic machinery reads from the list of fields. The order of the list is the order of the
 * selected columns and of the wire record's members: the same list gives the same SQL text, which the statement
 * caches and the named statements key on.
 */
export function fromFields(fields: readonly Field[]): DerivedFromFields {
  const shown = (view: View) => fields.filter((each) => each.views.includes(view));
  const writing = fields.filter((each) => each.write);
  // Each view's fields picked once: a long list makes a wire record per row, with no array besides.
  const wire = (view: View) => {
    const fieldsShown = shown(view);
    return (row: ViewRow, locale: Locale): WireRecord => {
      const record: WireRecord = {};
      for (const each of fieldsShown) record[each.name] = each.read(row, locale, view);
      return record;
    };
  };
  return {
    selectView: (qb, view, locale) => {
      const selected = shown(view);
      const columns = [...rootFields(...selected.flatMap((each) => each.rootFields(view))),
        ...selected.flatMap((each) => each.joinedColumns?.(view, locale) ?? [])];
      return selected.reduce((query, each) => each.join?.(query, view, locale) ?? query, qb.select(columns));
    },
    listView: wire('list'),
    detailView: wire('detail'),
    sqlCells: (view) => {
      const cells = shown(view).map((each) => each.sqlCells?.(view));
      return cells.every((each) => each !== undefined) ? Object.assign({}, ...cells) as Record<string, string>
        : undefined;
    },
    recordEndCells: (view) => Object.assign({}, ...shown(view).map((each) => each.recordEndCells?.(view))) as
      Record<string, RecordEndCell>,
    values: (body) => {
      const data: Record<string, unknown> = {};
      for (const each of writing) each.write!(body, data);
      return data;
    },
  };
}
