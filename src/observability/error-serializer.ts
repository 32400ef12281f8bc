// Writes an error for the log: its type, message, code and stack, and its causes, never the data it carried.
const keep = ['code', 'sqlState', 'errno', 'status'] as const;
const maxDepth = 5;

export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  cause?: LoggedError;
  code?: string | number;
  sqlState?: string | number;
  errno?: string | number;
  status?: string | number;
}

/**
 * Driver errors carry the statement's parameters (`detail`, `parameters`, `query`) and body-parser errors the
 * body (`body`): those would put a client's data, or a token, in the log. Only the fields listed above travel.
 */
export function serializeError(error: unknown, depth = 0): LoggedError | undefined {
  if (error === undefined || error === null || depth > maxDepth) return undefined;
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const logged: LoggedError = { type: error.constructor?.name ?? error.name, message: error.message,
    stack: error.stack };
  for (const key of keep) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') logged[key] = value;
  }
  const cause = serializeError(error.cause, depth + 1);
  if (cause) logged.cause = cause;
  return logged;
}
