// The contract, read once from openapi.yaml: its text as committed and the document parsed from it.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ContractMessageKey } from '../i18n/messages.ts';

export type Reference = { $ref: string };
export type Schema =
  Partial<Record<'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minProperties' | 'maxProperties', number>> & {
  type?: string | string[];
  properties?: Record<string, Schema | Reference>;
  additionalProperties?: Schema | Reference | boolean;
  items?: Schema | Reference;
  xml?: { name?: string };
  'x-message-keys'?: Record<string, ContractMessageKey>;
  [keyword: string]: unknown;
};
export type Parameter = { name: string; in: string; schema?: Schema | Reference };
export type Operation = {
  operationId?: string;
  parameters?: (Parameter | Reference)[];
  requestBody?: { content?: Record<string, { schema?: Schema | Reference }> };
  responses?: Record<string, unknown>;
  /** A list's: the operation that answers it when `view` names another view (its rows typed there). */
  'x-view-operations'?: Record<string, string>;
  /** A create's: the operation that answers it when `Prefer: return=representation` asks for the record. */
  'x-representation-operation'?: string;
};

export const openApiText = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');
export type OpenApiDocument =
  { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
export const openApiDocument = parse(openApiText) as OpenApiDocument;
