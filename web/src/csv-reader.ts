// RFC 4180 read in the page, for a file's preview before it is sent: fields split by commas, a quoted field may hold
// commas, doubled quotes and line ends; lines end in CRLF or LF; a byte order mark is dropped. The API reads the file
// again itself: this reader only shows what will be sent, so it never decides what is stored.

export interface CsvText {
  rows: string[][];
  /** The line a quote opened on and was never closed on (1-based), if one was: the file cannot be read. */
  unclosedQuoteLine?: number;
}

export function readCsv(text: string): CsvText {
  const rows: string[][] = [];
  let row: string[] = [];
  let value = '';
  let quoted = false;
  let line = 1;
  let quoteLine = 0;
  /** Whether anything of a row has been read since the last line end (a quoted empty field counts). */
  let started = false;
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endRow = () => {
    row.push(value);
    rows.push(row);
    row = [];
    value = '';
    started = false;
  };
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '\n') line++;
    if (char !== '\n' || quoted) started = true;
    if (quoted) {
      if (char !== '"') value += char;
      else if (body[i + 1] === '"') value += body[++i];
      else quoted = false;
    } else if (char === '"' && value === '') {
      quoted = true;
      quoteLine = line;
    } else if (char === ',') {
      row.push(value);
      value = '';
    } else if (char === '\n') endRow();
    else if (char === '\r' && body[i + 1] === '\n') continue;
    else value += char;
  }
  if (quoted) return { rows, unclosedQuoteLine: quoteLine };
  // A final line end ends the last row; it does not start an empty one.
  if (started) endRow();
  return { rows };
}
