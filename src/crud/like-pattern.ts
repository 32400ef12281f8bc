// A case-insensitive "contains" pattern in which %, _ and \ are literal (contract B, Query by example).
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
