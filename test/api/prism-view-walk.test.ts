// A Prism walk over the deprecated `view` parameter (issue 56): every operation that declares it, with each value the
// contract lists, one it does not, an empty one, and none, through a Prism of its own without --errors (which refuses
// a deprecated parameter's every use, so nothing with `view` would reach the service): each request is forwarded and
// Prism reports what it finds about the request and the answer. No request the contract forbids may be a success.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { startContractProxy, type ContractProxy } from '../support/contract-proxy.ts';
import { openApiDocument } from '../../src/contract/document.ts';
import { parametersOf } from '../../src/contract/parameters.ts';
import { referencedNode } from '../../src/contract/references.ts';

interface Walked { operation: string; method: string; path: string; body?: unknown }

/** The operations with a `view` query parameter, each with a request body from its example where it takes one. */
type ViewOperation = Walked & { allowed: string[]; answeredAs: Record<string, string> };
const operations: ViewOperation[] = Object.entries(openApiDocument.paths)
  .flatMap(([path, item]) => Object.entries(item).flatMap(([method, operation]) => {
    const view = parametersOf(operation).find((p) => p.in === 'query' && p.name === 'view');
    if (!view) return [];
    const schema = referencedNode(view.schema!) as { enum?: string[] };
    const content = (operation as { requestBody?: { content?: Record<string, { example?: unknown }> } })
      .requestBody?.content?.['application/json'];
    const { operationId, 'x-view-operations': answeredAs = {} } =
      operation as { operationId: string; 'x-view-operations'?: Record<string, string> };
    return [{ operation: operationId, method: method.toUpperCase(), path, allowed: schema.enum ?? [], answeredAs,
      ...content && { body: content.example } }];
  }));

interface Violation { location: string[]; severity: string; code: string | number; message: string }

/**
 * One request through Prism without --errors: forwarded whatever it finds, the service's status, and what Prism found
 * about the request and the answer (its `sl-violations` header), by severity.
 */
async function walk(proxy: ContractProxy, request: Walked & { query: string }, token: string) {
  const answer = await fetch(`${proxy.url}${request.path}${request.query}`, {
    method: request.method,
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json',
      ...request.body !== undefined && { 'Content-Type': 'application/json' } },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  await answer.body?.cancel();
  const violations = JSON.parse(answer.headers.get('sl-violations') ?? '[]') as Violation[];
  const found = (where: string, severity: string) => violations
    .filter((v) => v.location[0] === where && v.severity === severity)
    .map((v) => `${v.location.join('.')}: ${v.message}`);
  return { status: answer.status, requestErrors: found('request', 'Error'),
    requestWarnings: found('request', 'Warning'), answerErrors: found('response', 'Error') };
}

describe('a Prism walk over the view parameter', function () {
  let service: TestService;
  let proxy: ContractProxy;
  before(async function () {
    service = await sharedService();
    proxy = await startContractProxy(service.api, { errors: false });
  });
  after(async () => { await proxy?.close(); });

  it('when the contract is read, then the lists and queries by example declare view', () => {
    expect(operations.map((o) => o.operation)).to.include.members(['listSightings', 'listSightingsInDetailView',
      'listVessels', 'listTimezones', 'querySightingsByExample', 'querySightingsByExampleInListView']);
  });

  it('when each view value (listed, unlisted, empty, none) is sent through Prism, then no request the contract ' +
    'forbids is a success, every one it allows is, each answer is as declared, and Prism flags view as deprecated',
  async function () {
    const token = await tokenFor(service.realm, 'admin');
    const walked: Array<{ request: string; view?: string; answeredAs?: string; inEnum: boolean }
      & Awaited<ReturnType<typeof walk>>> = [];
    for (const operation of operations) {
      for (const view of [undefined, 'list', 'detail', 'summary', '']) {
        const query = `?limit=2${view === undefined ? '' : `&view=${view}`}`;
        walked.push({ request: `${operation.method} ${operation.path}${query}`, view,
          answeredAs: view === undefined ? undefined : operation.answeredAs[view],
          inEnum: view === undefined || operation.allowed.includes(view),
          ...await walk(proxy, { ...operation, query }, token) });
      }
    }
    const success = (status: number) => status >= 200 && status < 300;
    // Forbidden: outside the parameter's enum, or a request error Prism finds (Prism lets an empty value through).
    const forbidden = (w: typeof walked[number]) => !w.inEnum || w.requestErrors.length > 0;
    expect({
      forbiddenButAnswered: walked.filter((w) => forbidden(w) && success(w.status)).map((w) => w.request),
      allowedButRefused: walked.filter((w) => !forbidden(w) && !success(w.status))
        .map((w) => `${w.request} ${w.status}`),
      // A view its operation's `x-view-operations` names is answered as that other operation (the deprecated `view`'s
      // old behaviour, docs/sdk.md), which Prism cannot know: its rows may break this operation's schema (a vessel's
      // name map in detail rows, list rows of a query by example), and only dropping `view` at 3.0.0 ends that.
      answerBreaksContract: walked.filter((w) => w.answerErrors.length > 0 && !w.answeredAs)
        .map((w) => `${w.request}: ${w.answerErrors.join('; ')}`),
      notFlaggedDeprecated: walked.filter((w) => w.view && !w.requestWarnings.some((m) => /deprecated/.test(m)))
        .map((w) => w.request),
    }, JSON.stringify(walked, null, 1)).to.deep.equal({
      forbiddenButAnswered: [], allowedButRefused: [], answerBreaksContract: [], notFlaggedDeprecated: [],
    });
  });
});
