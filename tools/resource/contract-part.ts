// A collection's part of openapi.yaml: its paths (every operation of the generic set but the deprecated version
// read) and its schemas. What every collection answers alike is shared and only named here: the error answers and
// `Updated`, `NoMatch`, `NotModified` (response components), the header sets of the success answers (`x-header-sets`,
// written out in full where the hand-written part aliases them: aliases.ts), the event stream's shared events and the
// building-block schemas.
import { withoutAliases } from './aliases.ts';
import { fieldSchema, pascal, type Collection, type Field } from './description.ts';

export const ref = (kind: string, name: string) => `{ $ref: '#/components/${kind}/${name}' }`;

/** Answers by status, a shared response component each. */
const answers = (indent: string, statuses: Record<string, string>) => Object.entries(statuses)
  .map(([status, name]) => `${indent}'${status}': ${ref('responses', name)}`).join('\n');

const readErrors = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 406: 'NotAcceptable', 429: 'TooManyRequests',
  431: 'HeadersTooLarge', 500: 'ServerError', 503: 'Unavailable',
};
const byIdErrors = { ...readErrors, 404: 'NotFound' };
const bodyErrors = { 413: 'TooLarge', 415: 'UnsupportedMediaType' };
const createErrors = { ...readErrors, ...bodyErrors, 409: 'Conflict', 422: 'KeyReused' };
const batchErrors = { ...createErrors, 400: 'BatchRejected', 413: 'BatchTooLarge' };
const writeErrors = { ...byIdErrors, ...bodyErrors, 409: 'Conflict', 412: 'PreconditionFailed' };

/** A request body in JSON and XML. */
const body = (schema: string) => `      requestBody:
        required: true
        content:
          application/json: { schema: ${ref('schemas', schema)} }
          text/xml: { schema: ${ref('schemas', schema)} }
          application/xml: { schema: ${ref('schemas', schema)} }`;

/** A 200 answer whose headers are one of the shared header sets; a list's also in the export formats (`rows`). */
const ok = (description: string, headers: string, json: string, xml: string, rows?: ExportRows) => `'200':
          description: ${description}
          headers: *${headers}
          content:
            application/json: { schema: ${json} }${rows ? exportFormats(rows) : ''}
            text/xml: { schema: ${xml} }`;

/** A field's equality filter among a list's query parameters (an optional field's bounds without its null). */
export const filterParameter = (collection: Collection, field: Field) => field.type === 'text'
  ? `{ name: ${field.name}, in: query, description: Equality filter., allowReserved: true, schema: ${
    ref('schemas', 'FilterText')} }`
  : `{ name: ${field.name}, in: query, description: Equality filter., schema: ${field.optional
    ? `{ type: integer, format: int32, minimum: ${field.min}, maximum: ${field.max} }`
    : ref('schemas', fieldSchema(collection, field))} }`;

/** The rows of a list: their schema and an example row (its fields in the view's order). */
interface ExportRows {
  schema: string;
  example: Record<string, unknown>;
}

/** A list as CSV (its columns the row's fields) and as JSON lines (each line a row), with an example each. */
const exportFormats = ({ schema, example }: ExportRows) => {
  const csv = `${Object.keys(example).join(',')}\r\n${Object.values(example).join(',')}\r\n`;
  return `
            text/csv:
              schema: ${ref('schemas', 'CsvExport')}
              example: ${JSON.stringify(csv)}
            application/x-ndjson:
              schema: ${ref('schemas', schema)}
              example: ${JSON.stringify(example)}`;
};

/** A field's value in an example row: a text of letters within its bounds, an integer at its minimum. */
const sampleValue = (field: Field) => field.type === 'text'
  ? 'Example'.padEnd(field.min, 'e').slice(0, Math.max(field.min, Math.min(field.max, 7))) : field.min;

/** A row of the list (or detail) view as an example: the record with id 1 at version 0. */
function sampleRow(collection: Collection, view: 'list' | 'detail'): Record<string, unknown> {
  return { ...view === 'detail' && { version: 0 }, [`${collection.name}Id`]: 1,
    ...Object.fromEntries(collection.fields.map((field) => [field.name, sampleValue(field)])) };
}

function listParameters(collection: Collection, view: 'listView' | 'detailView'): string {
  const id = `${collection.name}Id`;
  const sortable = [id, ...collection.fields.map((field) => field.name)];
  const filters = [
    `{ name: ${id}, in: query, description: Equality filter., schema: ${ref('schemas', 'Id')} }`,
    ...collection.fields.map((field) => filterParameter(collection, field)),
    `{ name: version, in: query, description: Equality filter., schema: ${ref('schemas', 'Version')} }`,
  ];
  const sort = `{ name: sort, in: query, allowReserved: true, description: 'Orders the list by list-view fields, \
comma-separated, \`-\` for descending; ties by id ascending. Sortable: ${sortable.map((name) => `\`${name}\``)
    .join(', ')}.', \
schema: { type: string, maxLength: 200, pattern: '^-?(${sortable.join('|')})(,-?(${sortable.join('|')}))*$', \
x-message-keys: { pattern: error.sort.invalid, maxLength: error.sort.invalid } } }`;
  return [...filters, ...['limit', view, 'after'].map((name) => ref('parameters', name)), sort,
    ...['cursor', 'countPreference', 'download'].map((name) => ref('parameters', name))]
    .map((line) => `        - ${line}`).join('\n');
}

function paths(collection: Collection): string {
  const { name } = collection;
  const type = pascal(name);
  const tag = `      tags: [${name}]`;
  const items = (schema: string) => `{ type: array, items: ${ref('schemas', schema)} }`;
  const detail = ref('schemas', `${type}Detail`);
  const detailRows = { schema: `${type}Detail`, example: sampleRow(collection, 'detail') };
  // Written for PUT and PATCH alike, not anchored and aliased (aliases.ts).
  const replaced = `'200':
          description: 'Replaced, asked with \`Prefer: return=representation\`; the body is the detail view.'
          headers: *replacedHeaders
          content: { application/json: { schema: ${detail} }, text/xml: { schema: ${detail} } }`;
  return `  /${name}:
    get:
${tag}
      operationId: list${type}s
      x-view-operations: { detail: list${type}sInDetailView }
      summary: List ${name}s in the list view, ordered by id.
      description: 'Every ${name} in the list view, ordered by id, streamed. A whole list (without \`limit\`) is one \
consistent set of rows in every format: a record that exists for the whole answer comes exactly once. A query \
parameter naming a field is an equality filter; several are AND-ed. With \`limit\` one page comes back, and \
\`Link: <…>; rel="next"\` names the next. \
\`GET /${name}?view=detail\` is answered as \`list${type}sInDetailView\`. Role \`${collection.read}\`.'
      parameters:
${listParameters(collection, 'listView')}
      responses:
        ${ok(`The ${name}s (one page of them when \`limit\` is given).`, 'listHeaders', items(`${type}ListItem`),
          ref('schemas', `${type}Collection`), { schema: `${type}ListItem`, example: sampleRow(collection, 'list') })}
${answers('        ', readErrors)}
    post:
${tag}
      operationId: create${type}
      x-representation-operation: create${type}ReturningRecord
      summary: Create a ${name} (role ${collection.write}).
      description: 'Stores a ${name}: 201 with \`Location\` and \`ETag: "0"\`, and no body; \
\`Prefer: return=representation\` is answered as \`create${type}ReturningRecord\`. Role \`${collection.write}\`.'
      parameters: [${ref('parameters', 'idempotencyKey')}]
${body(`${type}Create`)}
      responses:
        '201': { description: 'Created; \`Location\` names the new ${name}.', headers: *createdHeaders }
${answers('        ', createErrors)}
  /${name}/batch:
    post:
${tag}
      operationId: create${type}Batch
      summary: Create many ${name}s at once, all or none (role ${collection.write}).
      description: 'Stores every record of the body as \`POST /${name}\` would, in one transaction, each with its \
\`created\` history entry and event in input order; or none, and the 400 names each bad record by position \
(BatchErrors). A JSON array, JSON lines, CSV (the columns of an export) or an XML list; the read-only fields of an \
exported record (\`${name}Id\`, \`version\`) are ignored. At most \`BATCH_MAX_RECORDS\` records and \
\`BATCH_MAX_BYTES\` bytes (413 beyond). Role \`${collection.write}\`.'
      parameters: [${ref('parameters', 'idempotencyKey')}]
      requestBody:
        required: true
        content:
          application/json: { schema: ${ref('schemas', 'BatchRecords')} }
          application/x-ndjson: { schema: ${ref('schemas', 'BatchRecords')} }
          text/csv: { schema: ${ref('schemas', 'BatchRecords')} }
          text/xml:
            schema: ${ref('schemas', 'BatchRecordsXml')}
            x-record-schema: ${ref('schemas', `${type}Create`)}
      responses:
        '201':
          description: Created, every one; the new records' ids and versions in input order.
          headers: *deletedHeaders
          content:
            application/json: { schema: ${ref('schemas', `${type}BatchCreated`)} }
            text/xml: { schema: ${ref('schemas', `${type}BatchCreated`)} }
${answers('        ', batchErrors)}
  /${name}/detail-view:
    get:
${tag}
      operationId: list${type}sInDetailView
      summary: List ${name}s in the detail view, ordered by id.
      description: 'The list of \`GET /${name}\` (\`list${type}s\`) with each row in the detail view; \
\`limit\` is at most 200. Role \`${collection.read}\`.'
      parameters:
${listParameters(collection, 'detailView')}
      responses:
        ${ok(`The ${name}s (one page of them when \`limit\` is given).`, 'listHeaders', items(`${type}Detail`),
          ref('schemas', `${type}DetailCollection`), detailRows)}
${answers('        ', readErrors)}
    post:
${tag}
      operationId: create${type}ReturningRecord
      summary: Create a ${name} (role ${collection.write}), answering its detail view.
      description: 'Stores a ${name} as \`POST /${name}\` does and answers 201 with \`Location\`, \
\`ETag: "0"\` and the new record''s detail view. Role \`${collection.write}\`.'
      parameters: [${ref('parameters', 'idempotencyKey')}]
${body(`${type}Create`)}
      responses:
        '201':
          description: Created; the body is the new ${name}'s detail view.
          headers: *createdWithRecordHeaders
          content: { application/json: { schema: ${detail} }, text/xml: { schema: ${detail} } }
${answers('        ', createErrors)}
  /${name}/qbe:
    post:
${tag}
      operationId: query${type}sByExample
      summary: ${pascal(name)}s matching a partial record, in the detail view.
      description: 'The ${name}s like the example, ordered by id: texts match as a case-insensitive substring, other \
fields by equality; 204 when nothing matches. Role \`${collection.read}\`.'
      parameters: [${ref('parameters', 'download')}]
${body(`${type}Example`)}
      responses:
        ${ok(`The matching ${name}s, ordered by id.`, 'queryHeaders', items(`${type}Detail`),
          ref('schemas', `${type}DetailCollection`), detailRows)}
${answers('        ', { 204: 'NoMatch', ...readErrors, ...bodyErrors })}
  /${name}/{id}:
    parameters: [${ref('parameters', 'id')}]
    get:
${tag}
      operationId: get${type}
      summary: One ${name} in the detail view.
      description: 'The detail view with \`ETag: "<version>"\`; \`If-None-Match\` naming it answers 304. Role \
\`${collection.read}\`.'
      parameters: [${ref('parameters', 'ifNoneMatch')}]
      responses:
        ${ok(`The ${name}.`, 'recordHeaders', detail, detail)}
${answers('        ', { 304: 'NotModified', ...byIdErrors })}
    put:
${tag}
      operationId: update${type}
      summary: Replace a ${name} (role ${collection.write}), carrying the version last read.
      description: 'Replaces the whole record; a stale \`version\` is a 409, a stale \`If-Match\` a 412. 204 with the \
new \`ETag\`, or 200 with the detail view with \`Prefer: return=representation\`. Role \`${collection.write}\`.'
      parameters: [${ref('parameters', 'ifMatch')}, ${ref('parameters', 'prefer')}]
${body(`${type}Update`)}
      responses:
        ${replaced}
${answers('        ', { 204: 'Updated', ...writeErrors })}
    patch:
${tag}
      operationId: patch${type}
      summary: Change some fields of a ${name} (JSON Merge Patch, RFC 7396).
      description: 'A member present replaces the field, an absent one stays; the version changed is stated as \
\`If-Match\` (else 428). Answers as a replacement. Only \`application/merge-patch+json\`. Role \`${collection.write}\`.'
      parameters: [${ref('parameters', 'ifMatch')}, ${ref('parameters', 'prefer')}]
      requestBody:
        required: true
        content: { application/merge-patch+json: { schema: ${ref('schemas', `${type}Patch`)} } }
      responses:
        ${replaced}
${answers('        ', { 204: 'Updated', 428: 'PreconditionRequired', ...writeErrors })}
    delete:
${tag}
      operationId: delete${type}
      summary: Delete a ${name} (role ${collection.write}).
      description: 'Deletes the record: 204; a later read is a 404. \`If-Match\` naming another version is a 412. Role \
\`${collection.write}\`.'
      parameters: [${ref('parameters', 'ifMatch')}]
      responses:
        '204': { description: Deleted., headers: *deletedHeaders }
${answers('        ', { ...byIdErrors, 409: 'Conflict', 412: 'PreconditionFailed' })}
  /${name}/{id}/versions:
    parameters: [${ref('parameters', 'id')}]
    get:
${tag}
      operationId: list${type}Versions
      summary: The history of a ${name}, newest first.
      description: 'One entry per create, update and delete, newest first: the version it made, \`change\`, \
\`changedAt\` and \`record\` (null for the delete); callers with role \`admin\` also see \`changedBy\`. Paged like \
lists; the history outlives a delete; a record that never existed is a 404. Role \`${collection.read}\`.'
      parameters:
        - { name: version, in: query, description: 'Equality filter: only the entries of this version.', schema: \
${ref('schemas', 'Version')} }
        - ${ref('parameters', 'limit')}
        - ${ref('parameters', 'afterVersion')}
        - ${ref('parameters', 'countPreference')}
      responses:
        ${ok('The entries (one page of them when `limit` is given).', 'versionListHeaders', items(`${type}Version`),
          ref('schemas', `${type}VersionCollection`))}
${answers('        ', byIdErrors)}
  /${name}/events:
    get:
${tag}
      operationId: ${name}Events
      summary: Changes to ${name}s as they are committed (Server-Sent Events).
      description: 'One event per committed change in commit order (\`created\`, \`updated\`, \`deleted\`), its \
\`data\` the id, the version and the list view after the change; \`Last-Event-ID\` resumes after that event, an id \
the history does not know starts with \`event: reset\`, an expired token ends it with \`event: token-expired\`. \
Role \`${collection.read}\`.'
      parameters: [${ref('parameters', 'lastEventId')}]
      responses:
        '200':
          description: The stream of changes; it ends only when the client or the instance goes away.
          headers: *eventStreamHeaders
          content: { text/event-stream: { schema: ${ref('schemas', `${type}FeedEvent`)} } }
${answers('        ', { ...readErrors, 429: 'FeedCallerFull', 503: 'FeedFull' })}
`;
}

/** A field's JSON type: an optional one's admits null. */
const typeOf = (field: Field) => {
  const type = field.type === 'integer' ? 'integer' : 'string';
  return field.optional ? `[${type}, 'null']` : type;
};

/** A field's bounds, once: its component schema, with the keys of its messages. */
export function boundsSchema(collection: Collection, field: Field): string {
  const key = `${collection.name}.${field.name}`;
  const own = `    ${fieldSchema(collection, field)}:`;
  if (field.type === 'integer') {
    return `${own}
      type: ${typeOf(field)}
      format: int32
      minimum: ${field.min}
      maximum: ${field.max}
      x-message-keys: { required: ${key}.required, type: ${key}.range, minimum: ${key}.range, maximum: ${key}.range }`;
  }
  return `${own}
      type: ${typeOf(field)}
      minLength: ${field.min}
      maxLength: ${field.max}
      pattern: *plainTextPattern
      x-message-keys: { pattern: error.field.controlCharacter, required: ${key}.required, type: ${key}.required, \
minLength: ${key}.length, maxLength: ${key}.length }`;
}

/** The field as a view shows it: its type and bounds without the messages a request's check needs. */
export const viewField = (field: Field) => field.type === 'integer'
  ? `{ type: ${typeOf(field)}, format: int32, minimum: ${field.min}, maximum: ${field.max} }`
  : `{ type: ${typeOf(field)}, maxLength: ${field.max}, pattern: *plainTextPattern }`;

/** A field in a query by example: a text is matched as a substring, so only its length is bounded. */
export const exampleField = (collection: Collection, field: Field) => field.type === 'text'
  ? `{ type: string, maxLength: ${field.max}, pattern: *plainTextPattern, x-message-keys: *plainTextKeys }`
  : ref('schemas', fieldSchema(collection, field));

function schemas(collection: Collection): string {
  const { name, fields } = collection;
  const type = pascal(name);
  const id = `${name}Id`;
  const names = fields.map((field) => field.name);
  const properties = (indent: string, each: (field: Field) => string) =>
    fields.map((field) => `${indent}${field.name}: ${each(field)}`).join('\n');
  const bounded = (field: Field) => ref('schemas', fieldSchema(collection, field));
  const object = (schema: string, required: string[], extra = '') => `    ${type}${schema}:
      type: object
      xml: { name: ${name} }
      additionalProperties: false${extra}
      required: [${required.join(', ')}]
      properties:`;
  const collectionOf = (schema: string, items: string, xml = 'collection') => `    ${type}${schema}:
      type: array
      xml: { name: ${xml}, wrapped: true }
      items: ${ref('schemas', `${type}${items}`)}`;
  const event = (kind: string) => `    ${type}${pascal(kind)}Event:
      description: '\`event: ${kind}\`: a ${name} was ${kind}.'
      type: object
      required: [id, event, data]
      additionalProperties: false
      properties:
        id: ${ref('schemas', 'ChangeEventId')}
        event: { type: string, enum: [${kind}] }
        data: ${ref('schemas', `${type}Change`)}`;
  return `
    # ---- ${name} (written by npm run resource:create) ${'-'.repeat(Math.max(0, 68 - name.length))}
${fields.map((field) => boundsSchema(collection, field)).join('\n')}
${object('ListItem', [id, ...names])}
        ${id}: ${ref('schemas', 'Id')}
${properties('        ', viewField)}
${object('Detail', ['version', id, ...names])}
        version: ${ref('schemas', 'Version')}
        ${id}: ${ref('schemas', 'Id')}
${properties('        ', viewField)}
    ${type}BatchCreated:
      description: 'The records a batch create stored: their ids and versions, in the order of the request''s records.'
      type: array
      xml: { name: created, wrapped: true }
      items:
        type: object
        xml: { name: item }
        required: [${id}, version]
        additionalProperties: false
        properties:
          ${id}: ${ref('schemas', 'Id')}
          version: ${ref('schemas', 'Version')}
${object('Create', names, `\n      x-server-generated: [${id}, version]`)}
${properties('        ', bounded)}
${object('Update', ['version', ...names])}
        version: ${ref('schemas', 'Version')}
        ${id}: ${ref('schemas', 'Id')}
${properties('        ', bounded)}
${object('Example', [])}
        version: ${ref('schemas', 'Version')}
        ${id}: ${ref('schemas', 'Id')}
${properties('        ', (field) => exampleField(collection, field))}
    ${type}Patch:
      description: 'A JSON Merge Patch (RFC 7396) of the ${name}: members present replace, absent ones stay.'
      type: object
      additionalProperties: false
      x-server-generated: [${id}]
      properties:
        version: ${ref('schemas', 'PatchVersion')}
${properties('        ', bounded)}
    ${type}Version:
      type: object
      xml: { name: version }
      required: [version, change, changedAt, record]
      properties:
        version: ${ref('schemas', 'Version')}
        change: ${ref('schemas', 'Change')}
        changedAt: ${ref('schemas', 'ChangedAt')}
        changedBy: ${ref('schemas', 'ChangedBy')}
        record: { description: The detail view at this version; null for the delete., oneOf: [\
${ref('schemas', `${type}Detail`)}, { type: 'null' }] }
${collectionOf('VersionCollection', 'Version', 'versions')}
${collectionOf('Collection', 'ListItem')}
${collectionOf('DetailCollection', 'Detail')}
    ${type}Change:
      description: 'The \`data\` of a ${name}''s \`created\` or \`updated\` event: its id, new version and list view.'
      type: object
      required: [id, version, record]
      additionalProperties: false
      properties:
        id: ${ref('schemas', 'Id')}
        version: ${ref('schemas', 'Version')}
        record: ${ref('schemas', `${type}ListItem`)}
${event('created')}
${event('updated')}
    ${type}FeedEvent:
      description: 'One event of the ${name} change feed, told apart by its \`event\` field.'
      oneOf: [${['Created', 'Updated'].map((kind) => ref('schemas', `${type}${kind}Event`)).join(', ')},
        ${['RecordDeletedEvent', 'FeedResetEvent', 'TokenExpiredEvent'].map((shared) => ref('schemas', shared))
    .join(', ')}]
      discriminator:
        propertyName: event
        mapping: { created: '#/components/schemas/${type}CreatedEvent',
          updated: '#/components/schemas/${type}UpdatedEvent',
          deleted: '#/components/schemas/RecordDeletedEvent', reset: '#/components/schemas/FeedResetEvent',
          token-expired: '#/components/schemas/TokenExpiredEvent' }
`;
}

/** openapi.yaml with the collection's tag, paths and schemas added where each part's list ends. */
export function withCollection(contract: string, collection: Collection): string {
  const { name } = collection;
  if (new RegExp(`^  /${name}:`, 'm').test(contract)) throw new Error(`openapi.yaml already has /${name}`);
  const lines = contract.split('\n');
  const insertBefore = (pattern: RegExp, text: string) => {
    const at = lines.findIndex((line) => pattern.test(line));
    if (at < 0) throw new Error(`openapi.yaml has no line ${pattern}`);
    lines.splice(at, 0, ...text.replace(/\n$/, '').split('\n'));
  };
  const tagsAt = lines.indexOf('tags:');
  const tagsEndAt = lines.findIndex((line, index) => index > tagsAt && /^\S/.test(line));
  lines.splice(tagsEndAt, 0, `  - name: ${name}`, `    description: ${pascal(name)}s.`);
  insertBefore(/^components:/, withoutAliases(contract, paths(collection)));
  while (lines.at(-1) === '') lines.pop();
  lines.push(...withoutAliases(contract, schemas(collection)).replace(/\n$/, '').split('\n'), '');
  return lines.join('\n');
}
