// A file chosen for import, read in the page: its records' count and first rows for the preview, and the media type
// it is sent as. The file is sent as it is (its bytes, not a re-encoding), so the API's row numbers are the file's.
import { readCsv } from './csv-reader.ts';

export interface ImportFile {
  /** `text/csv` or `application/json`, by the file's name or, failing that, its first character. */
  contentType: 'text/csv' | 'application/json';
  /** The preview's column names: the CSV header, or the JSON records' paths (`vessel.vesselId`). */
  columns: string[];
  /** The first records, one value per column. */
  preview: string[][];
  /** How many records the file holds. */
  count: number;
  text: string;
}

/** Why a file cannot be previewed: a CSV quote never closed (the line it opened on), JSON that is no array, nothing. */
export type Unreadable = { problem: 'csvQuote'; line: number } | { problem: 'json' } | { problem: 'empty' };

export const previewRows = 5;

/** `{vessel: {vesselId: 1}}` -> `[['vessel.vesselId', '1']]`: the columns an export writes for the same record. */
function flatten(value: unknown, prefix = ''): [string, string][] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key));
  }
  return [[prefix, value === null || value === undefined ? '' : typeof value === 'string' ? value
    : JSON.stringify(value)]];
}

function fromJson(text: string): ImportFile | Unreadable {
  let records: unknown;
  try {
    records = JSON.parse(text);
  } catch {
    return { problem: 'json' };
  }
  if (!Array.isArray(records)) return { problem: 'json' };
  const first = records.slice(0, previewRows).map((record) => new Map(flatten(record)));
  const columns = [...new Set(first.flatMap((record) => [...record.keys()]))];
  return { contentType: 'application/json', columns, count: records.length, text,
    preview: first.map((record) => columns.map((column) => record.get(column) ?? '')) };
}

function fromCsv(text: string): ImportFile | Unreadable {
  const { rows, unclosedQuoteLine } = readCsv(text);
  if (unclosedQuoteLine !== undefined) return { problem: 'csvQuote', line: unclosedQuoteLine };
  const [columns, ...records] = rows;
  if (!columns) return { problem: 'empty' };
  return { contentType: 'text/csv', columns, count: records.length, text, preview: records.slice(0, previewRows) };
}

export async function readImportFile(file: File): Promise<ImportFile | Unreadable> {
  const text = await file.text();
  if (!text.trim()) return { problem: 'empty' };
  const json = /\.json$/i.test(file.name) || (!/\.csv$/i.test(file.name) && /^\uFEFF?\s*\[/.test(text));
  return json ? fromJson(text) : fromCsv(text);
}
