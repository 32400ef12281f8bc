// A statement's text with its values taken out: what a trace may show of the SQL the service runs.
/**
 * MikroORM writes values into the statement it sends (its `execute` formats parameters into the text), so the text
 * `pg` sees, and its instrumentation would export, holds memos and ids. Every literal becomes `?`: string literals
 * (`''` escapes, and backslash escapes in E'…', included), dollar-quoted strings and numbers. Quoted identifiers
 * ("sighting_id") and placeholders ($1) stay.
 */
const literals = new RegExp([
  /(?:(?<![\w"$])[Ee]'(?:[^'\\]|\\[\s\S]|'')*')/, // E'…', with backslash escapes
  /(?:(?:[BbXxNn]|[Uu]&)?'(?:[^']|'')*')/, // '…', B'…', X'…', N'…', U&'…'
  /(?:\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$)/, // $tag$…$tag$ (the only capture group: \1)
  /(?:"(?:[^"]|"")*")/, // a quoted identifier, matched so that its digits stay
  /(?<![\w$.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])/, // a number
].map((part) => part.source).join('|'), 'g');

export function statementShape(sql: string): string {
  return sql.replace(literals, (match) => (match.startsWith('"') ? match : '?'));
}
