// Times every SQL statement the ORM runs, through its public logger hook; still logs them only with DB_DEBUG.
import { DefaultLogger, type LogContext, type Logger, type LoggerOptions } from '@mikro-orm/core';

/** What a statement does, from its first word: a bounded label, never the statement itself. */
const operations = new Set(['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback', 'savepoint',
  'release', 'set', 'reset', 'create', 'alter', 'drop', 'notify']);
export function statementVerb(sql: string): string {
  const word = /^\s*([a-z]+)/i.exec(sql)?.[1]?.toLowerCase() ?? '';
  return operations.has(word) ? word : 'other';
}

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
