// The XML examples in openapi.yaml are true: each document (`x-serialized-value`, OpenAPI 3.2's `serializedValue`
// for 3.1; not the registry's `x-oai-` name, which OpenAPI Generator refuses as reserved) has the declared shape,
// says what the example's data `value` and the JSON twin say, and each request example is accepted by the service.
import { expect } from 'chai';
import { openApiDocument, type Schema } from '../../src/contract/document.ts';
import { referencedNode } from '../../src/contract/references.ts';
import { contractProblems } from '../support/contract.ts';
import { xmlToContractValue } from '../support/xml-contract.ts';
import { sharedService } from '../support/service.ts';
import { declaration, xmlCall } from './xml-client.ts';

type Example = { value?: unknown; 'x-serialized-value'?: unknown };
type Media = { schema?: Schema; example?: unknown; examples?: Record<string, Example> };

/** The XML documents of a media type's examples, each with its data value. */
const xmlExamples = (media: Media | undefined): { name: string; document: string;
  value: unknown }[] => Object.entries(media?.examples ?? {})
  .filter(([, example]) => typeof example['x-serialized-value'] === 'string')
  .map(([name, example]) => ({ name, document: example['x-serialized-value'] as string, value: example.value }));
type Operation = { requestBody?: { content?: Record<string, Media> }; responses?: Record<string, unknown> };

const operations = Object.entries(openApiDocument.paths as Record<string, Record<string, Operation>>)
  .flatMap(([template, item]) => Object.entries(item).filter(([method]) => method !== 'parameters')
    .map(([method, operation]) =>
      ({ template, method: method.toUpperCase(), operation, path: template.replace('{id}', '-1') })));

describe('XML: the examples in openapi.yaml', () => {
  it('when a text/xml response example is read by its schema, ' +
    'then it has the declared shape and equals its JSON example', () => {
    const found: string[] = [];
    const problems = operations.flatMap(({ method, path, operation }) => Object.entries(operation.responses ?? {})
      .flatMap(([status, response]) => {
      const content = referencedNode<{ content?: Record<string, Media> }>(response as never).content ?? {};
      const xml = content['text/xml'];
      if (!xml?.schema) return [];
      return xmlExamples(xml).flatMap(({ name, document, value: data }) => {
        found.push(`${method} ${path} ${status} ${name}`);
        const { value, problems: shape } = xmlToContractValue(declaration + document, xml.schema!);
        // An example is a body, not an answer: no header fields come with it.
        const headers = new Headers({ 'content-type': 'text/xml' });
        const observed = { method, path, status: Number(status), headers, body: value };
        const contract = contractProblems(observed, 'xml', { headers: false });
        const json = content['application/json']?.example;
        const twin = json !== undefined && JSON.stringify(json) !== JSON.stringify(value)
          ? [`${method} ${path} ${status}: XML says ${JSON.stringify(value)}, JSON ${JSON.stringify(json)}`] : [];
        const dataValue = JSON.stringify(data) !== JSON.stringify(value) ? [`${method} ${path} ${status} ${name}: ` +
          `XML says ${JSON.stringify(value)}, value ${JSON.stringify(data)}`] : [];
        return [...shape, ...contract, ...twin, ...dataValue];
      });
    }));
    expect(problems).to.deep.equal([]);
    expect(found.length).to.be.at.least(8);
  });

  it('when a text/xml request example is sent by admin, then the service accepts it', async () => {
    const service = await sharedService();
    const sent = await Promise.all(
      operations.flatMap(({ method, path, operation }) => xmlExamples(operation.requestBody?.content?.['text/xml'])
      .map(async ({ document }) =>
        `${method} ${path} -> ${(await xmlCall(service, method, path, { user: 'admin', body: document })).status}`)));
    expect(sent).to.deep.equal(['POST /timezone/batch -> 201', 'POST /vessel -> 201', 'POST /vessel/batch -> 201',
      'POST /vessel/detail-view -> 201', 'POST /sighting -> 201', 'POST /sighting/batch -> 201',
      'POST /sighting/detail-view -> 201']);
  });
});
