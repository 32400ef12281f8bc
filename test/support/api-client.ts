// Calls the API as a client would: a typed client generated from openapi.yaml, every response checked against it.
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/openapi.ts';
import type { TestService } from './service.ts';
import { tokenFor, type User } from './tokens.ts';
import { contractProblems } from './contract.ts';
import { xmlBodyForContract } from './xml-contract.ts';
import { passesContractProxy, throughContractProxy } from './contract-proxy.ts';

export interface CallOptions {
  /** Whose token to send; `null` sends none. Default alice (reader, writer). */
  user?: User | null;
  headers?: Record<string, string>;
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
    const format = text === '' ? 'none' : mediaType === 'application/json' ? 'json' : 'xml';
    const asked = { search: new URL(request.url).search, headers: request.headers };
    const body = format === 'json' ? JSON.parse(text) : format === 'xml'
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
 * The generated-types client (openapi-fetch), as an SDK user would call the service; its JSON traffic also passes
 * Prism.
 */
export async function apiClient(service: TestService, options: CallOptions = {}) {
  return createClient<paths>({ baseUrl: service.api, fetch: contractCheckedFetch(service, { viaContractProxy: true }),
    headers: await headersFor(service, options) });
}

/** For what a typed client cannot send: malformed bodies, odd media types, raw headers. Still contract-checked. */
export async function rawRequest(service: TestService, method: string, path: string,
  options: CallOptions & { body?: string } = {}): Promise<Response> {
  const headers = await headersFor(service, options);
  return contractCheckedFetch(service)(`${service.api}${path}`, { method, headers, body: options.body });
}
