// Writes lists as JSON lines (docs/api.md#json-lines): the JSON list's objects, one per line, each ended by `\n`.
import { jsonRepresentation, type Representation } from './representation.ts';

export const ndjsonRepresentation: Representation = {
  mediaType: 'application/x-ndjson',
  extension: 'ndjson',
  document: jsonRepresentation.document,
  listOpen: () => '',
  listItem: (_root, body) => `${JSON.stringify(body)}\n`,
  listClose: () => '',
};
