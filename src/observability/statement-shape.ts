// A statement's text with its values taken out: what a trace may show of the SQL the service runs.
/**
 * MikroORM writes values into the statement it sends (its `execute` formats parameters into the text), so the text
 * `pg` sees, and its instrumentation would export, holds memos and ids. Every literal becomes `?`: string literals
 * (`''` escapes, and backslash escapes in E'…', included), dollar-quoted strings and numbers. Quoted identifiers
 * ("sighting_id") and placeholders ($1) stay.
 */
const literals = /(?:(?<![\w"$])[Ee]'(?:[^'\\]|\\[\s\S]|'')*')|(?:(?:[BbXxNn]|[Uu]&)?'(?:[^']|'')*')|(?:\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$)|(?:"(?:[^"]|"")*")|(?<![\w$.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])/g;

export function statementShape(sql: string): string {
  return sql.replace(literals, (match) => (match.startsWith('"') ? match : '?'));
}
