// A whole list as CSV written by PostgreSQL itself (`COPY (the view's select) TO STDOUT (FORMAT csv)`): a long export
// costs the service no row object and no line of text per row, only the bytes passed on (src/http/send-copied.ts).
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor } from '../resource-descriptor.ts';
import type { CsvColumn } from '../../http/csv-columns.ts';
import type { ExportBytes } from '../../http/send-copied.ts';
import { listSelect } from './statement-shapes.ts';
import type { BatchedRead } from './row-stream.ts';
import { routedRead, type ConnectionType } from '../../db/read-routing.ts';
import { readsByCursor } from '../../db/orm.ts';
import { copyOut } from '../../db/copy-out.ts';

/**
 * A text cell as the service writes it (src/http/csv-columns.ts, `formulaStart`): one `'` before a text that would open
 * as a formula; an empty text written as null is, an empty field (COPY would quote it). Most texts start with a letter
 * (or any character above `@`, none of which opens a formula): one `ascii` of their first character (0 for an empty
 * text) and one comparison is all they cost.
 */
const guardedText = (cell: string) => `case when ascii(${cell}) > 64 then ${cell} `
  + `when ascii(${cell}) in (0, 39, 61, 43, 45, 64, 9, 13) then case `
  + `when ${cell} = '' then null when ${cell} ~ '^''*[=+@\\t\\r-]' then '''' || ${cell} else ${cell} end `
  + `else ${cell} end`;

/**
 * The export of the view's rows that `where` picks, in the keys' order, as COPY writes them for `columns`; undefined
 * where PostgreSQL cannot write them: on PGlite (no COPY to a client), or when a column has no SQL (a language map's).
 * Opened, it holds one of the share's places until its bytes are read or it is closed: the database writes at its
 * own speed, and a slow client's bytes wait in the sender's spool, not on the connection.
 */
export function copiedCsv<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>,
  where: FilterQuery<E>, columns: readonly CsvColumn[],
  { kind, view, locale, keys, share, signal }: Required<Pick<BatchedRead, 'kind' | 'view' | 'keys' | 'share'>>
    & Pick<BatchedRead, 'locale' | 'signal'>,
): (() => Promise<ExportBytes>) | undefined {
  const cells = resource.sqlCells?.(view);
  if (!readsByCursor(em) || !cells || !columns.every(({ name }) => Object.hasOwn(cells, name))) return undefined;
  // The last column's cell may cost PostgreSQL less in a shape the service finishes where it ends each record.
  const lastCell = resource.recordEndCells?.(view)[columns.at(-1)!.name];
  const cellSql = ({ name, text }: CsvColumn, index: number) => {
    const sql = lastCell && index === columns.length - 1 ? lastCell.sql : cells[name]!;
    return text ? guardedText(sql) : sql;
  };
  // The outer select only projects each row: PostgreSQL keeps the inner select's order.
  const select = (connectionType: ConnectionType) => `select ${columns.map(cellSql).join(', ')} `
    + `from (${listSelect(em, resource, where, view, keys, connectionType, locale)}) as "row"`;
  return async () => {
    const release = await share.take(signal);
    try {
      const copied = await routedRead(kind, (connectionType) =>
        copyOut(em, connectionType, select(connectionType), 'format csv'));
      return {
        next: () => copied.next(),
        lastCell,
        async close() {
          try {
            await copied.close();
          } finally {
            release();
          }
        },
      };
    } catch (error) {
      release();
      throw error;
    }
  };
}
