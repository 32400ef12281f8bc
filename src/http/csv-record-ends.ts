// PostgreSQL's CSV (COPY … FORMAT csv) ends each row with LF; the service's CSV ends them with CRLF (RFC 4180). A row's
// last cell may come in a shape that cost the database less than the wire's text, and is finished here.

/**
 * A record's last cell as PostgreSQL writes it for less (`sql`), always `width` characters, and how the service makes
 * the wire's text of it: `finish` takes those characters before a row's end and gives the wire's text, or undefined
 * when they are not the cell's shape (an empty cell, for null, ends after a comma), which then goes out as it came.
 */
export interface RecordEndCell {
  sql: string;
  width: number;
  finish(cell: string): string | undefined;
}

/**
 * Rewrites COPY's CSV bytes piece by piece: each LF that ends a row becomes CRLF, an LF inside a quoted field (a line
 * break in a memo) stays as it is. Whether a piece begins inside quotes carries over from the one before. The quote
 * is an ASCII byte that no UTF-8 sequence holds, so the bytes are read as latin1, one character a byte, and go out
 * unchanged but for the CRs, and for the last cells `lastCell` finishes, when given.
 */
export class CsvRecordEnds {
  #quoted = false;
  readonly #ends: (part: string) => string;
  /** With a last cell to finish: the bytes after the last row end so far, which the next piece completes. */
  #unended: string | undefined;

  constructor(lastCell?: RecordEndCell) {
    if (!lastCell) {
      this.#ends = (part) => part.replaceAll('\n', '\r\n');
      return;
    }
    const { width, finish } = lastCell;
    // A walk from row end to row end costs half of a regular expression's replacement and the line ends' after it.
    this.#ends = (part) => {
      let out = '';
      let from = 0;
      for (let end = part.indexOf('\n'); end !== -1; end = part.indexOf('\n', end + 1)) {
        const finished = end - width >= from ? finish(part.slice(end - width, end)) : undefined;
        out += finished === undefined ? `${part.slice(from, end)}\r\n`
          : `${part.slice(from, end - width)}${finished}\r\n`;
        from = end + 1;
      }
      return out + part.slice(from);
    };
    this.#unended = '';
  }

  rewrite(piece: Buffer): Buffer {
    let text = piece.toString('latin1');
    if (this.#unended !== undefined) {
      // A cell is finished whole: a row cut between pieces waits for the rest of it.
      text = this.#unended + text;
      const end = text.lastIndexOf('\n') + 1;
      this.#unended = text.slice(end);
      text = text.slice(0, end);
    }
    // Most pieces hold no quote at all: every LF in them ends a row.
    if (!this.#quoted && !text.includes('"')) return Buffer.from(this.#ends(text), 'latin1');
    let out = '';
    let start = 0;
    for (;;) {
      const quote = text.indexOf('"', start);
      const end = quote === -1 ? text.length : quote + 1;
      const part = text.slice(start, end);
      out += this.#quoted ? part : this.#ends(part);
      if (quote === -1) break;
      // A doubled quote inside a field flips twice: the state is right again after it.
      this.#quoted = !this.#quoted;
      start = end;
    }
    return Buffer.from(out, 'latin1');
  }

  /** What came after the last row end, as it came: nothing when PostgreSQL wrote the rows (each ends with LF). */
  rest(): Buffer {
    return Buffer.from(this.#unended ?? '', 'latin1');
  }
}
