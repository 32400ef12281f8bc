// Times every SQL statement the ORM runs, through its public logger hook; still logs them only with DB_DEBUG.
import { DefaultLogger, type LogContext, type Logger, type LoggerOptions } from '@mikro-orm/core';

/** What a statement does, from its first word: a bounded label, never the statement itself. */
const operations = new Set(['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback', 'savepoint',
  'release', 'set', 'reset', 'create', 'alter', 'drop', 'notify']);
export function statementVerb(sql: string): string {
  // Read in place, one statement at a time: no match and no lower-cased copy for a word already in lower case.
  let start = 0;
  while (start < sql.length && isSpace(sql.charCodeAt(start))) start += 1;
  let end = start;
  while (end < sql.length && isLetter(sql.charCodeAt(end))) end += 1;
  for (const operation of operations) {
    if (operation.length === end - start && sql.startsWith(operation, start)) return operation;
  }
  const word = sql.slice(start, end).toLowerCase();
  return operations.has(word) ? word : 'other';
}
// What `\s` and `[a-z]` (any case) match in a statement's first characters.
const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff
  || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f
  || code === 0x205f || code === 0x3000;
const isLetter = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90);

export type StatementTimer = (operation: string, target: 'primary' | 'replica', seconds: number) => void;

/** MikroORM's `loggerFactory`: its connections report each statement's duration (`took`, in ms) to the logger. */
export function timedQueries(timer: StatementTimer): (options: LoggerOptions) => Logger {
  return (options) => new (class extends DefaultLogger {
    override logQuery(context: { query: string } & LogContext): void {
      if (context.took !== undefined && context.query) timer(statementVerb(context.query),
        context.connection?.type === 'read' ? 'replica' : 'primary', context.took / 1000);
      super.logQuery(context);
    }
  })(options);
}
