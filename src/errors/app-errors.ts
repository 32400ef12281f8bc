// The errors the service throws on purpose: each carries its HTTP status and a message key, never text. The common
// refusals are made by the factories of src/errors/refusals.ts.
import type { ContractMessageKey, MessageKey } from '../i18n/messages.ts';

export interface FieldProblem {
  /** The offending field's path, e.g. `sightingMemo`, `vessel.vesselId`, `vesselName.en`. */
  field: string;
  /** A key of the bundles, or one the contract's `x-message-keys` names for the rule the value broke. */
  key: MessageKey | ContractMessageKey;
  params?: Record<string, unknown>;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  readonly key: MessageKey;
  readonly params: Record<string, unknown>;
  /** Extra response headers, e.g. `Allow` or `WWW-Authenticate`. */
  readonly headers: Record<string, string>;

  constructor(key: MessageKey, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(key);
    this.name = new.target.name;
    this.key = key;
    this.params = params;
    this.headers = headers;
  }
}

/** 400 with one entry per offending field. */
export class ValidationFailed extends AppError {
  readonly status = 400;
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    super('error.validation');
    this.problems = problems;
  }
}

/** A field problem of one record of a batch: its 1-based position in the body (array index + 1, JSON line). */
export interface RecordProblem extends FieldProblem {
  record: number;
}

/** 400 on a batch: nothing was stored; the first problems by record, and how many more were found. */
export class BatchRejected extends AppError {
  readonly status = 400;
  readonly problems: RecordProblem[];
  /** Problems found beyond `problems` (answered as `_more`), 0 when every one is listed. */
  readonly more: number;
  constructor(problems: RecordProblem[], more = 0) {
    super('error.validation');
    this.problems = problems;
    this.more = more;
  }
}

/** 400 about a part of the request as a whole (a body that cannot be read); answered as a field error on that part. */
export class BadRequest extends AppError {
  readonly status = 400;
  /** The part at fault, answered as the field: `body`, or a header's name. */
  readonly part: string;
  constructor(key: MessageKey, params: Record<string, unknown> = {}, headers: Record<string, string> = {},
    part = 'body') {
    super(key, params, headers);
    this.part = part;
  }
}
export class Unauthorized extends AppError { readonly status = 401; }
export class Forbidden extends AppError { readonly status = 403; }
export class NotFound extends AppError { readonly status = 404; }
export class MethodNotAllowed extends AppError { readonly status = 405; }
export class NotAcceptable extends AppError { readonly status = 406; }
export class Conflict extends AppError { readonly status = 409; }
export class PreconditionFailed extends AppError { readonly status = 412; }
export class PreconditionRequired extends AppError { readonly status = 428; }
export class UnprocessableContent extends AppError { readonly status = 422; }
export class PayloadTooLarge extends AppError { readonly status = 413; }
export class UnsupportedMediaType extends AppError { readonly status = 415; }
export class TooManyRequests extends AppError { readonly status = 429; }
export class ServiceUnavailable extends AppError { readonly status = 503; }
