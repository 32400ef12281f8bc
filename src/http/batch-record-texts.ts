// A batch's records held as their JSON texts, one string each, from the moment each is read until its row is sent.
// A record as a JS object costs several objects and a string per field (~230 bytes for a CSV row of 70); its JSON text
// is one flat string, which the collector marks at once. A CSV row is held smaller still: its cells' texts alone, the
// header once for all (docs/api.md#whole-data-sets-in-batch-create).
import { parseUnrounded } from './unrounded-numbers.ts';

/** How a CSV row's cells, keyed by the header, become its record (src/crud/write/csv-columns.ts). */
export type RowRecord = (row: Record<string, string>) => unknown;

export class BatchRecordTexts {
  /** Each record's JSON text (`{…}`, or any JSON value a JSON body held), or a CSV row's cells (`[…]`), in order. */
  private readonly texts: Array<string | undefined> = [];
  private header: readonly string[] = [];
  private readonly rowRecord: RowRecord | undefined;

  /** `rowRecord`: for a CSV body, how a row becomes its record; a JSON value is never read as a row otherwise. */
  constructor(rowRecord?: RowRecord) {
    this.rowRecord = rowRecord;
  }

  get length(): number {
    return this.texts.length;
  }

  /** A record as read (a JSON value). `undefined`, which JSON has not, is null, as in a JSON array. */
  add(value: unknown): void {
    this.texts.push(JSON.stringify(value) ?? 'null');
  }

  /** A CSV row, its cells in its keys' order (the same for every row, which the first row's keys give). */
  addRow(row: Record<string, string>): void {
    if (this.texts.length === 0) this.header = Object.keys(row);
    this.texts.push(JSON.stringify(Object.values(row)));
  }

  /** The record at `index` (0-based), made anew from its text each time: its caller may change it. */
  at(index: number): unknown {
    const text = this.texts[index];
    if (text === undefined) return undefined;
    if (this.rowRecord && text.startsWith('[')) {
      const cells = JSON.parse(text) as string[];
      const row: Record<string, string> = {};
      this.header.forEach((name, column) => {
        Object.defineProperty(row, name, { value: cells[column], enumerable: true, writable: true,
          configurable: true });
      });
      return this.rowRecord(row);
    }
    return parseUnrounded(text);
  }

  /** The record at `index` as JSON, as `JSON.stringify` writes it (what an idempotency key's fingerprint hashes). */
  json(index: number): string {
    const text = this.texts[index];
    return this.rowRecord && text?.startsWith('[') ? JSON.stringify(this.at(index)) ?? 'null' : text ?? 'null';
  }

  /** The record at `index` is now `record` (checked, its read-only fields dropped). */
  set(index: number, record: unknown): void {
    this.texts[index] = JSON.stringify(record) ?? 'null';
  }

  /** The record at `index` is no longer needed (its row is on its way, or it was refused). */
  drop(index: number): void {
    this.texts[index] = undefined;
  }

  /** Every record is dropped. */
  clear(): void {
    this.texts.length = 0;
  }
}
