// Test helpers for XML over HTTP: requests with XML headers (contract-checked like every call), and XML body builders.
import type { TestService } from '../support/service.ts';
import { contractCheckedFetch } from '../support/api-client.ts';
import { tokenFor, type User } from '../support/tokens.ts';

export const declaration = '<?xml version="1.0" encoding="UTF-8"?>';
export const xsiDeclaration = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

export interface XmlCall {
  user?: User | null;
  /** Default text/xml. */
  accept?: string;
  /** Default text/xml when there is a body. */
  contentType?: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** One call with XML defaults; the response is checked against openapi.yaml, XML bodies included. */
export async function xmlCall(service: TestService, method: string, path: string,
  call: XmlCall = {}): Promise<Response> {
  const user = call.user === undefined ? 'alice' : call.user;
  const headers: Record<string, string> = {
    Accept: call.accept ?? 'text/xml',
    ...(call.body !== undefined && { 'Content-Type': call.contentType ?? 'text/xml' }),
    ...(user && { Authorization: `Bearer ${await tokenFor(service.realm, user)}` }),
    ...call.headers,
  };
  return contractCheckedFetch(service)(`${service.api}${path}`, { method, headers, body: call.body });
}

/** Status, the headers a test looks at, and the body text: one value to compare whole. */
export async function outcome(response: Response, headerNames: string[] = []): Promise<{ status: number;
  type: string | null; body: string; headers: Record<string, string | null> }> {
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.text(),
    headers: Object.fromEntries(headerNames.map((name) => [name, response.headers.get(name)])),
  };
}

export const xmlType = 'text/xml; charset=utf-8';
export const jsonType = 'application/json; charset=utf-8';

/** `<errors><general>…</general></errors>` as the service writes it. */
export const generalError = (message: string): string => `${declaration}<errors><general>${message}</general></errors>`;

/**
 * A 400 about the body as a whole: an entry on the field `body`,
 * `<errors><body><message>…</message><key>…</key></body></errors>`.
 */
export const bodyError = (message: string, key: string): string =>
  `${declaration}<errors><body><message>${message}</message><key>${key}</key></body></errors>`;

/** `<errors><field><message>…</message><key>…</key></field>…</errors>` as the service writes it. */
export const fieldErrors = (fields: Record<string, { message: string; key: string }>): string =>
  `${declaration}<errors>${Object.entries(fields).map(([field, { message, key }]) =>
    `<${field}><message>${message}</message><key>${key}</key></${field}>`).join('')}</errors>`;

export const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
