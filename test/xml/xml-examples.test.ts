// The XML examples in openapi.yaml are true: each response example has the declared shape and says what its JSON twin says,
// and each request example is accepted by the service.
import { expect } from 'chai';
import { openApiDocument, resolve, type Schema } from '../../src/validation/openapi-document.ts';
import { contractProblems } from '../support/contract.ts';
import { xmlToContractValue } from '../support/xml-contract.ts';
import { sharedService } from '../support/service.ts';
import { declaration, xmlCall } from './xml-client.ts';

type Media = { schema?: Schema; example?: unknown };
type Operation = { requestBody?: { content?: Record<string, Media> }; responses?: Record<string, unknown> };

const operations = Object.entries(openApiDocument.paths as Record<string, Record<string, Operation>>)
  .flatMap(([template, item]) => Object.entries(item).filter(([method]) => method !== 'parameters')
    .map(([method, operation]) => ({ template, method: method.toUpperCase(), operation, path: template.replace('{id}', '-1') })));

describe('XML: the examples in openapi.yaml', () => {
  it('when a text/xml response example is read by its schema, then it has the declared shape and equals its JSON example', () => {
    const found: string[] = [];
    const problems = operations.flatMap(({ method, path, operation }) => Object.entries(operation.responses ?? {}).flatMap(([status, response]) => {
      const content = resolve<{ content?: Record<string, Media> }>(response as never).content ?? {};
      const xml = content['text/xml'];
      if (typeof xml?.example !== 'string' || !xml.schema) return [];
      found.push(`${method} ${path} ${status}`);
      const { value, problems: shape } = xmlToContractValue(declaration + xml.example, xml.schema);
      const contract = contractProblems({ method, path, status: Number(status), headers: new Headers({ 'content-type': 'text/xml' }), body: value }, 'xml');
      const json = content['application/json']?.example;
      const twin = json !== undefined && JSON.stringify(json) !== JSON.stringify(value) ? [`${method} ${path} ${status}: XML says ${JSON.stringify(value)}, JSON ${JSON.stringify(json)}`] : [];
      return [...shape, ...contract, ...twin];
    }));
    expect(problems).to.deep.equal([]);
    expect(found.length).to.be.at.least(8);
  });

  it('when a text/xml request example is sent by admin, then the service accepts it', async () => {
    const service = await sharedService();
    const sent = await Promise.all(operations.filter(({ operation }) => typeof operation.requestBody?.content?.['text/xml']?.example === 'string')
      .map(async ({ method, path, operation }) => {
        const response = await xmlCall(service, method, path, { user: 'admin', body: operation.requestBody!.content!['text/xml']!.example as string });
        return `${method} ${path} -> ${response.status}`;
      }));
    expect(sent).to.deep.equal(['POST /vessel -> 201', 'POST /sighting -> 201']);
  });
});
