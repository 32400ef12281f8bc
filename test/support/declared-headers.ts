// Compares the header fields of an answer with those openapi.yaml declares on that operation's response for its status.
import { dereference, pointer } from '../../src/contract/references.ts';

/**
 * Fields of the message and the connection, not of the API: no operation declares them (docs/api.md, "Headers"
 * lists them and says why). Everything else an answer carries must be declared on it.
 */
export const transportHeaders: ReadonlySet<string> = new Set([
  'content-type', 'content-length', 'transfer-encoding', 'content-encoding', 'vary', 'date', 'connection', 'keep-alive',
  'x-accel-buffering',
]);

/**
 * Headers an answer carries only under a setting or because the request asked: a rate limit, an allowed `Origin`, a
 * deprecated part used, a count asked for, a next page, a download. Any other header an answer sends it always sends
 * on that response, and an SDK may count on it only when it is `required` (a removed optional one broke no gate).
 */
export const conditionalHeaders: ReadonlySet<string> = new Set([
  'ratelimit', 'ratelimit-policy', 'access-control-allow-origin', 'access-control-expose-headers', 'deprecation',
  'sunset', 'link', 'x-total-count', 'preference-applied', 'content-disposition',
]);

interface DeclaredHeader { required?: boolean }

/** The headers declared on `method template` → `status`, by lower-case name; undefined for an undeclared status. */
export function declaredHeaders(
  template: string, method: string, status: number,
): Map<string, DeclaredHeader> | undefined {
  const response = pointer('paths', template, method.toLowerCase(), 'responses', String(status));
  const { pointer: at, node } = dereference(response);
  if (!node) return undefined;
  const names = Object.keys((node as { headers?: Record<string, unknown> }).headers ?? {});
  const declared = (name: string) => dereference(`${at}${pointer('headers', name)}`).node as DeclaredHeader;
  return new Map(names.map((name) => [name.toLowerCase(), declared(name)]));
}

/** What breaks the contract: a header sent but not declared, a required one missing, or an undeclared status. */
export function headerProblems(template: string, method: string, status: number, headers: Headers): string[] {
  const where = `${method} ${template} → ${status}`;
  const declared = declaredHeaders(template, method, status);
  if (!declared) return [`${where}: status not declared`];
  const sent = new Set(headers.keys());
  const undeclared = [...sent].filter((name) => !transportHeaders.has(name) && !declared.has(name));
  const missing = [...declared].filter(([name, header]) => header.required && !sent.has(name)).map(([name]) => name);
  const optional = [...sent].filter((name) => !conditionalHeaders.has(name) && declared.get(name)?.required !== true
    && declared.has(name));
  return [
    ...undeclared.map((name) => `${where}: ${name} sent, not declared`),
    ...missing.map((name) => `${where}: ${name} required, not sent`),
    ...optional.map((name) => `${where}: ${name} always sent, declared optional`),
  ];
}
