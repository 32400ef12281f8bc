// Breaks a generated migration's long statements into lines the width rule (ESLint's max-len 120) admits.

/** The widest line ESLint's `max-len` admits (eslint.config.js). */
const width = 120;

/**
 * MikroORM writes each statement as one `this.addSql(`…`);` line, whatever its length. A longer one becomes a sum of
 * template literals, each line broken after a space: the same text, since a space inside a literal is only text.
 */
export function withinWidth(source: string): string {
  return source.split('\n').map((line) => {
    const statement = /^(\s*)this\.addSql\(`(.*)`\);$/.exec(line);
    if (line.length <= width || !statement) return line;
    const [, indent, sql] = statement as unknown as [string, string, string];
    const parts: string[] = [];
    let rest = sql;
    // The first line holds `this.addSql(`; each next one `  + ` and both backticks; the last one also `);`.
    for (let room = width - indent.length - 'this.addSql(``'.length; ;
      room = width - indent.length - '  + ``'.length) {
      if (rest.length <= room - 2) {
        parts.push(rest);
        break;
      }
      const cut = rest.lastIndexOf(' ', room - 1);
      if (cut <= 0) {
        parts.push(rest);
        break;
      }
      parts.push(rest.slice(0, cut + 1));
      rest = rest.slice(cut + 1);
    }
    return `${indent}this.addSql(${parts.map((part) => `\`${part}\``).join(`\n${indent}  + `)});`;
  }).join('\n');
}
