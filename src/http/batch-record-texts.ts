// A batch's records held as their JSON texts from the moment each is read until its row is sent, a thousand records'
// texts to one string. A record as a JS object costs several objects and a string per field (~230 bytes for a CSV row
// of 70); its JSON text is one flat string, which the collector marks at once; and a string of its own costs a header
// and a reference besides its characters (~28 bytes, 0.4× a CSV row), which a block of a thousand pays once. A CSV row
// is held smaller still: its cells' texts alone, the header once for all (docs/api.md#whole-data-sets-in-batch-create).
import { parseUnrounded } from './unrounded-numbers.ts';
import { setOwn } from './csv-columns.ts';

/** How a CSV row's cells, keyed by the header, become its record (src/crud/write/csv-columns.ts). */
export type RowRecord = (row: Record<string, string>) => unknown;

/** Records to a block: a block's offsets cost 4 bytes a record, its string's header and reference are shared. */
export const recordsPerBlock = 1000;

/** A thousand records' texts one after the other, where each ends, and which of them were dropped. */
interface Block {
  text: string;
  ends: Uint32Array;
  dropped: Uint8Array | undefined;
  left: number;
}

export class BatchRecordTexts {
  /** The full blocks, in order; one whose every record was dropped is undefined. */
  private readonly blocks: Array<Block | undefined> = [];
  /** The block being filled: each record's JSON (`{…}`, or any JSON value a JSON body held), or a CSV row's cells. */
  private filling: Array<string | undefined> = [];
  private header: readonly string[] = [];
  private readonly rowRecord: RowRecord | undefined;
  private readAs: ((record: unknown) => unknown) | undefined;

  /** `rowRecord`: for a CSV body, how a row becomes its record; a JSON value is never read as a row otherwise. */
  constructor(rowRecord?: RowRecord) {
    this.rowRecord = rowRecord;
  }

  get length(): number {
    return this.blocks.length * recordsPerBlock + this.filling.length;
  }

  /** A record as read (a JSON value). `undefined`, which JSON has not, is null, as in a JSON array. */
  add(value: unknown): void {
    this.push(JSON.stringify(value) ?? 'null');
  }

  /** A CSV row, its cells in its keys' order (the same for every row, which the first row's keys give). */
  addRow(row: Record<string, string>): void {
    if (this.length === 0) this.header = Object.keys(row);
    this.push(JSON.stringify(Object.values(row)));
  }

  /**
   * From now on each record is read through `view` (the export's read-only fields dropped, src/crud/write/
   * batch-records.ts): the text held stays the one sent, and a record is never held twice.
   */
  readThrough(view: (record: unknown) => unknown): void {
    this.readAs = view;
  }

  /** The record at `index` (0-based), made anew from its text each time (its caller may change it), as viewed. */
  at(index: number): unknown {
    const text = this.textAt(index);
    if (text === undefined) return undefined;
    const record = this.rowRecord && text.startsWith('[') ? this.rowOf(text) : parseUnrounded(text);
    return this.readAs ? this.readAs(record) : record;
  }

  /** The record at `index` as sent, as `JSON.stringify` writes it (what an idempotency key's fingerprint hashes). */
  json(index: number): string {
    const text = this.textAt(index);
    if (!(this.rowRecord && text?.startsWith('['))) return text ?? 'null';
    return JSON.stringify(this.rowOf(text)) ?? 'null';
  }

  /** The record at `index` is no longer needed (its row is sent, or it was refused); a block goes with its last. */
  drop(index: number): void {
    const at = Math.floor(index / recordsPerBlock);
    const block = this.blocks[at];
    if (block === undefined) {
      if (at === this.blocks.length) this.filling[index % recordsPerBlock] = undefined;
      return;
    }
    block.dropped ??= new Uint8Array(recordsPerBlock);
    if (block.dropped[index % recordsPerBlock] === 1) return;
    block.dropped[index % recordsPerBlock] = 1;
    if ((block.left -= 1) === 0) this.blocks[at] = undefined;
  }

  /** Every record is dropped. */
  clear(): void {
    this.blocks.length = 0;
    this.filling = [];
  }

  private push(text: string): void {
    this.filling.push(text);
    if (this.filling.length < recordsPerBlock) return;
    const ends = new Uint32Array(recordsPerBlock);
    let end = 0;
    this.filling.forEach((one, index) => { ends[index] = end += one?.length ?? 0; });
    const block: Block = { text: this.filling.join(''), ends, dropped: undefined, left: recordsPerBlock };
    this.blocks.push(block);
    // One dropped before its block was full (none is while the body is read) stays dropped.
    const dropped = this.filling.flatMap((one, index) => one === undefined ? [index] : []);
    this.filling = [];
    for (const offset of dropped) this.drop((this.blocks.length - 1) * recordsPerBlock + offset);
  }

  private textAt(index: number): string | undefined {
    if (index < 0 || index >= this.length) return undefined;
    const at = Math.floor(index / recordsPerBlock);
    const offset = index % recordsPerBlock;
    if (at === this.blocks.length) return this.filling[offset];
    const block = this.blocks[at];
    if (block === undefined || block.dropped?.[offset] === 1) return undefined;
    return block.text.slice(offset === 0 ? 0 : block.ends[offset - 1], block.ends[offset]);
  }

  /** A CSV row's record from its cells' text, keyed by the header. */
  private rowOf(text: string): unknown {
    const cells = JSON.parse(text) as string[];
    const row: Record<string, string> = {};
    this.header.forEach((name, column) => { setOwn(row, name, cells[column]!); });
    return this.rowRecord!(row);
  }
}
