// The refusals the service makes in several places, each made here once: its status, message key and headers, so
// two places cannot answer one refusal differently.
import {
  BadRequest, Conflict, Forbidden, MethodNotAllowed, NotAcceptable, NotFound, PayloadTooLarge, PreconditionFailed,
  PreconditionRequired, ServiceUnavailable, UnsupportedMediaType,
} from './app-errors.ts';

/** An id that names no record (docs/behaviour.md#ids). */
export const entityNotFound = (): NotFound => new NotFound('error.entityNotFound');

/** A path that is not the contract's. */
export const pathNotFound = (): NotFound => new NotFound('error.notFound');

/** A path of the contract asked with a method it does not have; `allow` names the ones it has. */
export const methodNotAllowed = (allow: string | undefined): MethodNotAllowed =>
  new MethodNotAllowed('error.methodNotAllowed', {}, allow ? { Allow: allow } : {});

/** A caller without the role the operation needs (docs/behaviour.md#roles). */
export const roleMissing = (): Forbidden => new Forbidden('error.forbidden');

/** A caller whose role reaches only its own records, asking to change another's (docs/behaviour.md#roles). */
export const notOwner = (): Forbidden => new Forbidden('error.notOwner');

/** A write stating a version the record no longer has (docs/behaviour.md#update). */
export const staleVersion = (): Conflict => new Conflict('error.entityChanged');

/** A value a unique key holds already. */
export const valueTaken = (): Conflict => new Conflict('error.entityExists');

/** A record that others still reference, asked to be deleted (docs/behaviour.md#delete). */
export const recordInUse = (): Conflict => new Conflict('error.entityInUse');

/** `If-Match` naming another version than the record's. */
export const ifMatchFailed = (): PreconditionFailed => new PreconditionFailed('error.preconditionFailed');

/** A partial update that states no version (docs/behaviour.md#partial-update). */
export const versionRequired = (): PreconditionRequired => new PreconditionRequired('error.versionRequired');

/** A body that cannot be read as its media type says. */
export const malformedBody = (): BadRequest => new BadRequest('error.malformedBody');

/** A body beyond `BODY_LIMIT`. */
export const payloadTooLarge = (): PayloadTooLarge => new PayloadTooLarge('error.payloadTooLarge');

/** A body neither JSON nor XML, or in a character encoding the service does not read. */
export const unsupportedMediaType = (): UnsupportedMediaType => new UnsupportedMediaType('error.unsupportedMediaType');

/** An `Accept` that allows no representation the operation has. */
export const notAcceptable = (): NotAcceptable => new NotAcceptable('error.notAcceptable');

/** The database cannot be reached or is too slow to use now; a retry after a few seconds may find it back. */
export const databaseUnavailable = (): ServiceUnavailable =>
  new ServiceUnavailable('error.unavailable', {}, { 'Retry-After': '5' });

/**
 * A write whose connection broke after it was sent: the database may have stored it. Said so, since a client that
 * takes a 503 for "nothing happened" and retries without its `Idempotency-Key` would store it twice.
 */
export const writeOutcomeUnknown = (): ServiceUnavailable =>
  new ServiceUnavailable('error.outcomeUnknown', {}, { 'Retry-After': '5' });
