// What the gate reports: one change to one operation, with whether it can break a client generated from the old
// contract.
/** `request`: what a client sends (it may widen, not narrow); `response`: what it receives (narrow, not widen). */
export type Direction = 'request' | 'response';

/** `breaking`: a client built from the old contract can fail; `deprecated`: newly marked; `compatible`: any other. */
export type Level = 'breaking' | 'deprecated' | 'compatible';

export interface Finding {
  level: Level;
  /** `GET /sighting/{id}`, or `contract` for what is not one operation's. */
  operation: string;
  /** Where in the operation: `response 200`, `query parameter limit`, `` (the operation itself). */
  where: string;
  /** The media type of the body or parameter content, when the change is in one. */
  media?: string;
  /** The path from the body or value to the change: `[].anyOf[SightingListItem].sightingDate`. */
  path?: string;
  /** The message, naming old → new. */
  message: string;
}

/** A schema change before it is placed in an operation: `path` leads from the body (or parameter) to the change. */
export interface SchemaChange {
  level: Level;
  path: string;
  message: string;
}

/** `code` in Markdown, with backticks inside it kept readable. */
export const code = (value: unknown): string => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** Where a finding is, beyond its operation. */
export type Place = Pick<Finding, 'media' | 'path'>;
