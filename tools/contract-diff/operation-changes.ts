// Compares the operations of two contracts: added and removed operations, then, for each kept one, its id,
// parameters, request body, responses and security.
import { describe, show } from './describe.ts';
import type { Contract, Node } from './document.ts';
import { code, type Direction, type Finding, type Level, type Place } from './finding.ts';
import { contentOf, operationsOf, type Operation } from './operations.ts';
import { compareResponses } from './response-changes.ts';
import { SchemaComparison } from './schema-changes.ts';
import { securityChanges } from './security-changes.ts';

export function operationChanges(old: Contract, next: Contract): Finding[] {
  const before = operationsOf(old);
  const after = operationsOf(next);
  const findings: Finding[] = [];
  for (const [key, operation] of before) {
    const kept = after.get(key);
    if (kept) {
      findings.push(...new OperationComparison(old, next, operation, kept).run());
      continue;
    }
    const id = typeof operation.node.operationId === 'string' ? ` (${code(operation.node.operationId)})` : '';
    findings.push({ level: 'breaking', operation: operation.label, where: '', message: `operation removed${id}` });
  }
  for (const [key, { label }] of after) {
    if (before.has(key)) continue;
    findings.push({ level: 'compatible', operation: label, where: '', message: 'operation added' });
  }
  return findings;
}

const requiredOrNot = (node: Node) => (node.required === true ? 'required' : 'optional');
const breakingIf = (breaks: boolean): Level => (breaks ? 'breaking' : 'compatible');

/** One operation in both versions; `operation` names it as the new version spells it. */
export class OperationComparison {
  readonly findings: Finding[] = [];
  readonly operation: string;
  readonly old: Contract;
  readonly next: Contract;
  private readonly before: Operation;
  private readonly after: Operation;

  constructor(old: Contract, next: Contract, before: Operation, after: Operation) {
    this.old = old;
    this.next = next;
    this.before = before;
    this.after = after;
    this.operation = after.label;
  }

  run(): Finding[] {
    const { node: was, parameters: oldParameters } = this.before;
    const { node: is, parameters: newParameters } = this.after;
    if (was.operationId !== is.operationId) {
      // Generated SDKs name their method after it: a client's call no longer compiles.
      const ids = `${code(String(was.operationId))} → ${code(String(is.operationId))}`;
      this.add(breakingIf(typeof was.operationId === 'string'), '', `operationId ${ids}`);
    }
    if (is.deprecated === true && was.deprecated !== true) {
      const sunset = typeof is['x-sunset'] === 'string' ? `, sunset ${is['x-sunset']}` : '';
      this.add('deprecated', '', `operation deprecated${sunset}`);
    }
    for (const [id, parameter] of oldParameters) this.compareParameter(id, parameter, newParameters.get(id));
    for (const [id, parameter] of newParameters) {
      if (!oldParameters.has(id)) this.compareParameter(id, undefined, parameter);
    }
    this.comparePositions(this.before.positions, this.after.positions);
    this.compareRequestBody(this.old.resolve(was.requestBody).node, this.next.resolve(is.requestBody).node);
    compareResponses(this, was, is);
    this.findings.push(...securityChanges(this.old, this.next, was, is, this.operation));
    return this.findings;
  }

  add(level: Level, where: string, message: string, place: Place = {}): void {
    this.findings.push({ level, operation: this.operation, where, ...place, message });
  }

  /** Schema changes at `where` (in the body of `media`), each placed at its path. */
  compareSchemas(where: string, direction: Direction, oldSchema: unknown, newSchema: unknown, media?: string): void {
    for (const change of SchemaComparison.run(this.old, this.next, direction, oldSchema, newSchema)) {
      this.add(change.level, where, change.message, { media, ...(change.path ? { path: change.path } : {}) });
    }
  }

  private compareParameter(id: string, was: Node | undefined, is: Node | undefined): void {
    const where = `${id.split(' ')[0]} parameter ${code(String((is ?? was)!.name))}`;
    if (!is) return this.add('breaking', where, 'removed');
    if (!was) {
      const type = code(describe(this.next, parameterSchema(is)));
      return this.add(breakingIf(is.required === true), where, `new ${requiredOrNot(is)} parameter (${type})`);
    }
    if (was.required !== true && is.required === true) this.add('breaking', where, 'now required');
    if (was.required === true && is.required !== true) this.add('compatible', where, 'no longer required');
    if (is.deprecated === true && was.deprecated !== true) this.add('deprecated', where, 'deprecated');
    // Another style or explode serialises the value differently; allowReserved only lets clients skip encoding.
    for (const field of ['style', 'explode']) {
      if (was[field] === is[field]) continue;
      this.add('breaking', where, `${field} ${show(was[field])} → ${show(is[field])}: sent differently`);
    }
    this.compareSchemas(where, 'request', parameterSchema(was), parameterSchema(is));
  }

  /**
   * Generators that pass arguments by position (kotlin; java native keeps positional overloads beside its request
   * objects) hand a caller's values to other parameters when a kept one moves; one only added at the end moves none.
   * The project generates java and typescript-axios with request objects (useSingleRequestParameter): named, unmoved.
   */
  private comparePositions(was: string[], is: string[]): void {
    const kept = was.filter((id) => is.includes(id));
    if (kept.every((id) => was.indexOf(id) === is.indexOf(id))) return;
    const names = (ids: string[]) => code(ids.map((id) => this.argumentName(id)).join(', '));
    this.add('breaking', 'parameters', `positional order ${names(was)} → ${names(is)}` +
      ' (breaks calls by position in generated SDKs: kotlin, and java native\'s positional overloads; not java\'s' +
      ' request objects or typescript-axios with useSingleRequestParameter, as this project generates them)');
  }

  private argumentName(id: string): string {
    const parameter = this.after.parameters.get(id) ?? this.before.parameters.get(id);
    return parameter ? String(parameter.name) : id;
  }

  private compareRequestBody(was: Node, is: Node): void {
    const oldContent = contentOf(was);
    const newContent = contentOf(is);
    if (!oldContent.size && !newContent.size) return;
    if (!newContent.size) return this.add('breaking', 'request body', 'removed');
    if (!oldContent.size) {
      return this.add(breakingIf(is.required === true), 'request body', `new ${requiredOrNot(is)} body`);
    }
    if (was.required !== true && is.required === true) this.add('breaking', 'request body', 'now required');
    for (const [type, media] of oldContent) {
      const kept = newContent.get(type);
      if (!kept) this.add('breaking', 'request body', 'media type removed', { media: type });
      else this.compareSchemas('request body', 'request', media.schema ?? true, kept.schema ?? true, type);
    }
    for (const type of newContent.keys()) {
      if (!oldContent.has(type)) this.add('compatible', 'request body', 'media type added', { media: type });
    }
  }
}

/** A parameter's schema, or that of its one `content` entry. */
const parameterSchema = (parameter: Node): unknown =>
  parameter.schema ?? [...contentOf(parameter).values()][0]?.schema ?? true;
