// A batch's records as the rows its writes take, made a part at a time as the writes ask for them: the batch is held
// once, as its records' texts, and each record is dropped as soon as its row is on its way.
import type { EntityManager } from '@mikro-orm/core';
import type { AnyResource, WireRecord } from '../resource-descriptor.ts';
import { rowValues } from './row-values.ts';
import { turns, type RecordProblems } from './batch-records.ts';
import type { BatchRecordTexts } from '../../http/batch-record-texts.ts';

/** A row keyed by column (a relation by its key, a custom type as stored). */
export type Row = Record<string, unknown>;

/** A record's rows in another table (a vessel's names), and whose they are: the record's position (0-based). */
export interface RelatedRow { position: number; row: Row }

export class BatchRows {
  /** The union of the rows' columns, sorted. */
  readonly columns: string[];
  /** Each reference column's value of each record, by position (undefined for a refused record or no value). */
  readonly references: ReadonlyMap<string, unknown[]>;
  /** The related rows by relation, gathered as the records' rows are taken. */
  readonly related = new Map<string, RelatedRow[]>();
  private readonly em: EntityManager;
  private readonly resource: AnyResource;
  private readonly records: BatchRecordTexts;
  private readonly owner: Row;
  private readonly dropped: () => void;

  private constructor(em: EntityManager, resource: AnyResource, records: BatchRecordTexts, owner: Row,
    dropped: () => void, columns: string[], references: Map<string, unknown[]>) {
    this.em = em;
    this.resource = resource;
    this.records = records;
    this.owner = owner;
    this.dropped = dropped;
    this.columns = columns;
    this.references = references;
  }

  /** How many records the batch has. */
  get length(): number {
    return this.records.length;
  }

  /**
   * The rows of `records` (checked, with `problems`; the owner's column set to `owner`). One pass, a millisecond
   * a turn, finds their columns and referenced keys; the rows themselves are made when taken (`parts`), and `dropped`
   * is told when the last record is.
   */
  static async of(em: EntityManager, resource: AnyResource, records: BatchRecordTexts, problems: RecordProblems,
    owner: Row, dropped: () => void = () => undefined): Promise<BatchRows> {
    const columns = new Set<string>();
    const references = new Map(Object.keys(resource.references ?? {}).map((column) => [column, [] as unknown[]]));
    const rows = new BatchRows(em, resource, records, owner, dropped, [], references);
    const turn = turns();
    for (let index = 0; index < records.length; index += 1) {
      await turn();
      // A record the schema refused has no values (batch-records.ts dropped it); its references are not looked up.
      if (problems.has(index + 1)) continue;
      const row = rows.rowOf(records.at(index) as WireRecord);
      for (const column of Object.keys(row)) columns.add(column);
      for (const [column, values] of references) values[index] = row[column];
    }
    return new BatchRows(em, resource, records, owner, dropped, [...columns].sort(), references);
  }

  /**
   * Every record's row in input order, in parts of `size`, each record taken out of the batch as its part is made;
   * its related rows are gathered then. Only for a batch whose every record passed.
   */
  *parts(size: number): Generator<Row[]> {
    const { records } = this;
    for (let start = 0; start < records.length; start += size) {
      const part: Row[] = [];
      for (let index = start; index < Math.min(start + size, records.length); index += 1) {
        const record = records.at(index) as WireRecord;
        records.drop(index);
        part.push(this.rowOf(record));
        this.relatedOf(record, index);
      }
      yield part;
    }
    records.clear();
    this.dropped();
  }

  private rowOf(record: WireRecord): Row {
    const { columns, values } = rowValues(this.em, this.resource, { ...this.resource.values(record), ...this.owner });
    const row: Row = {};
    columns.forEach((column, at) => { row[column] = values[at]; });
    return row;
  }

  private relatedOf(record: WireRecord, position: number): void {
    if (!this.resource.relatedRows) return;
    const { relation, rows } = this.resource.relatedRows(record);
    const list = this.related.get(relation) ?? this.related.set(relation, []).get(relation)!;
    for (const row of rows) list.push({ position, row });
  }
}
