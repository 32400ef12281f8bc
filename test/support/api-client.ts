// Calls the API as a client would: a typed client generated from openapi.yaml, every response checked against it.
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/openapi.ts';
import type { TestService } from './service.ts';
import { tokenFor, type User } from './tokens.ts';
import { contractProblems, type BodyFormat } from './contract.ts';
import { xmlBodyForContract } from './xml-contract.ts';
import { passesContractProxy, throughContractProxy } from './contract-proxy.ts';

export interface CallOptions {
  /** Whose token to send; `null` sends none. Default alice (reader, writer). */
  user?: User | null;
  headers?: Record<string, string>;
}

const bodyFormats: Record<string, BodyFormat> = { 'application/json': 'json', 'application/x-ndjson': 'ndjson',
  'text/csv': 'csv' };

/** JSON lines' values: each line ends with `\n`, the last one too (so no line after it). */
export function ndjsonLines(text: string): unknown[] {
  if (!text.endsWith('\n')) throw new Error(`JSON lines not ended by a line feed: ${text.slice(-80)}`);
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as unknown);
}

/**
 * A fetch that fails the test when a response is not what openapi.yaml documents. With `viaContractProxy`, requests
 * to a service that has the contract proxy go through Prism too (contract-proxy.ts says which).
 */
export function contractCheckedFetch(service: TestService, { viaContractProxy = false } = {}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = viaContractProxy && service.proxy && passesContractProxy(request, service.api)
      ? await throughContractProxy(service.proxy, service.api, request) : await fetch(request);
    const path = new URL(request.url).pathname.slice(new URL(service.api).pathname.length);
    const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim();
    const text = await response.clone().text();
    const format = text === '' ? 'none' : bodyFormats[mediaType ?? ''] ?? 'xml';
    const asked = { search: new URL(request.url).search, headers: request.headers };
    const body = format === 'json' ? JSON.parse(text) : format === 'ndjson' ? ndjsonLines(text) : format === 'xml'
      ? await xmlBodyForContract(text, path, request.method, response.status, asked) : undefined;
    const problems = contractProblems({ method: request.method, path, status: response.status,
      headers: response.headers, body, asked }, format);
    if (problems.length) throw new Error(`response breaks openapi.yaml:\n${problems.join('\n')}`);
    return response;
  };
}

async function headersFor(service: TestService, options: CallOptions): Promise<Record<string, string>> {
  const user = options.user === undefined ? 'alice' : options.user;
  return { ...(user && { Authorization: `Bearer ${await tokenFor(service.realm, user)}` }), ...options.headers };
}

/**
 * The media types an SDK user reads as values, JSON's and XML's: a list's export formats (CSV, JSON lines) are read
 * as text by the tests that ask for them; left in, every list's answer would be typed as a string too.
 */
type ClientMedia = `${string}/json` | `${string}/${string}+json` | `${string}/xml` | 'text/event-stream';

/**
 * The generated-types client (openapi-fetch), as an SDK user would call the service; its JSON traffic also passes
 * Prism.
 */
export async function apiClient(service: TestService, options: CallOptions = {}) {
  return createClient<paths, ClientMedia>({ baseUrl: service.api,
    fetch: contractCheckedFetch(service, { viaContractProxy: true }), headers: await headersFor(service, options) });
}

/** For what a typed client cannot send: malformed bodies, odd media types, raw headers. Still contract-checked. */
export async function rawRequest(service: TestService, method: string, path: string,
  options: CallOptions & { body?: string } = {}): Promise<Response> {
  const headers = await headersFor(service, options);
  return contractCheckedFetch(service)(`${service.api}${path}`, { method, headers, body: options.body });
}
