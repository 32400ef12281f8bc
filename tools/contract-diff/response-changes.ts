// Compares an operation's responses: statuses, media types and their schemas, headers (received, so they may
// narrow, not widen).
import { isNode, type Contract, type Node } from './document.ts';
import { code } from './finding.ts';
import type { OperationComparison } from './operation-changes.ts';
import { contentOf } from './operations.ts';

export function compareResponses(comparison: OperationComparison, was: Node, is: Node): void {
  const { old, next } = comparison;
  const before = isNode(was.responses) ? was.responses : {};
  const after = isNode(is.responses) ? is.responses : {};
  for (const [status, raw] of Object.entries(before)) {
    const where = `response ${code(status)}`;
    if (!(status in after)) {
      comparison.add('breaking', where, 'removed');
      continue;
    }
    const oldResponse = old.resolve(raw).node;
    const newResponse = next.resolve(after[status]).node;
    const oldContent = contentOf(oldResponse);
    const newContent = contentOf(newResponse);
    for (const [type, media] of oldContent) {
      const kept = newContent.get(type);
      if (!kept) comparison.add('breaking', where, 'media type removed', { media: type });
      else comparison.compareSchemas(where, 'response', media.schema ?? true, kept.schema ?? true, type);
    }
    for (const type of newContent.keys()) {
      if (!oldContent.has(type)) comparison.add('compatible', where, 'media type added', { media: type });
    }
    compareHeaders(comparison, where, headersOf(old, oldResponse), headersOf(next, newResponse));
  }
  for (const status of Object.keys(after)) {
    if (!(status in before)) comparison.add('compatible', `response ${code(status)}`, 'added');
  }
}

type Headers = Map<string, { name: string; header: Node }>;

/** Response headers by lower-case name (HTTP field names are case-insensitive, RFC 9110 §5.1). */
function headersOf(contract: Contract, response: Node): Headers {
  const headers = isNode(response.headers) ? Object.entries(response.headers) : [];
  return new Map(headers.map(([name, raw]) => [name.toLowerCase(), { name, header: contract.resolve(raw).node }]));
}

function compareHeaders(comparison: OperationComparison, response: string, before: Headers, after: Headers): void {
  for (const [key, { name, header }] of before) {
    const where = `${response} header ${code(name)}`;
    const kept = after.get(key)?.header;
    const required = header.required === true;
    if (!kept) {
      // Required or not, a declared header is one clients read (an SDK's raw answer, the ETag a conditional write
      // sends back): removing it from the contract says it may stop coming.
      comparison.add('breaking', where, `removed${required ? ' (was required)' : ''}`);
      continue;
    }
    if (required && kept.required !== true) comparison.add('breaking', where, 'no longer required (may be absent)');
    if (!required && kept.required === true) comparison.add('compatible', where, 'now required (always sent)');
    if (kept.deprecated === true && header.deprecated !== true) comparison.add('deprecated', where, 'deprecated');
    comparison.compareSchemas(where, 'response', headerSchema(header), headerSchema(kept));
  }
  for (const [key, { name }] of after) {
    if (!before.has(key)) comparison.add('compatible', `${response} header ${code(name)}`, 'added');
  }
}

const headerSchema = (header: Node): unknown => header.schema ?? [...contentOf(header).values()][0]?.schema ?? true;
