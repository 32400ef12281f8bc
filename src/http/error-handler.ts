// The one place errors become responses: ours, the validator's, body parsers' and MikroORM's, localized.
import type { ServerResponse } from 'node:http';
import type { Request, Response, NextFunction } from 'express';
import { NotFoundError, OptimisticLockError, UniqueConstraintViolationException,
  ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { error as validator } from 'express-openapi-validator';
import * as errors from '../errors/app-errors.ts';
import {
  databaseUnavailable, entityNotFound, malformedBody, methodNotAllowed, pathNotFound, payloadTooLarge, recordInUse,
  staleVersion, unsupportedMediaType, valueTaken, writeOutcomeUnknown,
} from '../errors/refusals.ts';
import { isDatabaseClosed, isDatabaseUnavailable, mayHaveBeenStored } from '../errors/database-unavailable.ts';
import { instanceStopping } from './stopping.ts';
import { apiVersion } from './api-version.ts';
import { fieldProblems, type ValidatorErrorItem } from '../validation/field-problems.ts';
import { withControlsEscaped } from '../validation/control-characters.ts';
import { message, type Locale } from '../i18n/messages.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import { sendDocument } from './send.ts';
import { recordError } from '../observability/request-log.ts';
import { operationOf } from '../contract/resolution.ts';

export async function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): Promise<void> {
  try {
    await answer(error, req, res);
  } catch (failure) {
    // The error path itself failed: never let express's default handler answer (it shows the stack as HTML).
    lastResort(res, failure);
  }
}

/**
 * The answer when nothing else can be trusted: a fixed English JSON body, no stack, no HTML, no path. Also
 * replaces express's final handler (see mount-application.ts), so it is the only thing that answers after the app.
 */
export function lastResort(res: ServerResponse, error?: unknown): void {
  console.error('the error handler failed', error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ general: 'An unexpected error occurred.' });
  // The release as on every answer: the middleware that sets it may be what failed.
  res.writeHead(500, {
    'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body),
    'API-Version': apiVersion,
  }).end(body);
}

async function answer(error: unknown, req: Request, res: Response): Promise<void> {
  const appError = toAppError(error, req);
  if (res.headersSent) {
    // A list was already streaming: the only honest signal left is to cut the connection. The request's
    // log line carries the error.
    recordError(res, error);
    res.destroy();
    return;
  }
  // The request's log line carries the cause of a 5xx (never shown to the client).
  if (appError.status >= 500) recordError(res, error);
  const locale = requestLocale(req);
  res.set(appError.headers);
  // Answered before its body was read (401, 403, 415, …): the rest of the body would be read as the next request, or
  // never arrive. The connection ends after this answer (RFC 9112 §9.6).
  if (!req.complete) res.set('Connection', 'close');
  // Every 400 is field errors (openapi.yaml, FieldErrors); one about the request as a whole names the part at fault.
  const problems = appError instanceof errors.ValidationFailed ? appError.problems
    : appError instanceof errors.BadRequest ? [{ field: appError.part, key: appError.key, params: appError.params }]
      : undefined;
  const body = appError instanceof errors.BatchRejected ? recordErrorsBody(appError, locale)
    : problems ? fieldErrorsBody(problems, locale) : { general: message(locale, appError.key, appError.params) };
  await sendDocument(res, appError.status, 'errors', body);
}

// A body with thousands of unknown fields made a 478 KB answer: the first entries say enough (openapi.yaml
// FieldErrors).
const mostFieldErrors = 100;
/** RecordError's `field` (openapi.yaml): at most this many characters. */
const longestField = 1000;

/** A field path as RecordError may carry it: a client's unknown key with its controls escaped, and bounded. */
function shownField(field: string): string {
  const shown = withControlsEscaped(field);
  return shown.length > longestField ? `${shown.slice(0, longestField - 1)}…` : shown;
}

/** A batch's 400 (openapi.yaml BatchErrors): each bad record by position, field, localized message and key. */
function recordErrorsBody(rejected: errors.BatchRejected, locale: Locale): object {
  const records = rejected.problems.map(({ record, field, key, params }) =>
    ({ record, field: shownField(field), message: message(locale, key, params), key }));
  return rejected.more > 0 ? { records, _more: rejected.more } : { records };
}

function fieldErrorsBody(problems: errors.FieldProblem[],
  locale: Locale): Record<string, { message: string; key: string }> {
  const shown = problems.slice(0, mostFieldErrors).map((p) => [p.field, { message: message(locale, p.key, p.params),
    key: p.key }]);
  const more = problems.length - shown.length;
  // `_more` is no field of any resource; it counts the entries left out.
  if (more > 0) shown.push(['_more', { message: message(locale, 'error.validation.more', { count: more }),
    key: 'error.validation.more' }]);
  return Object.fromEntries(shown);
}

class InternalError extends errors.AppError { readonly status = 500; }

/** A create, replacement, merge patch or delete: an operation that changes records (a query by example has a view). */
function isWrite(req: Request): boolean {
  const operation = operationOf(req);
  return !!operation && operation.method !== 'get' && operation.view === undefined;
}

function toAppError(error: unknown, req: Request): errors.AppError {
  if (error instanceof errors.AppError) return error;
  // findOneOrFail: the id names no record (docs/behaviour.md#ids).
  if (error instanceof NotFoundError) return entityNotFound();
  // The router decodes a path's id (`/vessel/%E0%A4%A` cannot be): text that is not even decodable names no record.
  if (error instanceof URIError) return entityNotFound();
  if (error instanceof OptimisticLockError) return staleVersion();
  if (error instanceof UniqueConstraintViolationException) return valueTaken();
  // PostgreSQL 16+ (and so PGlite) reports ON DELETE RESTRICT as SQLSTATE 23001, which MikroORM leaves unconverted.
  if (error instanceof ForeignKeyConstraintViolationException
    || (error as { code?: unknown })?.code === '23001') return recordInUse();
  // While the instance stops, the pool closes under work still in flight: that is the instance going, not the database.
  if ((isDatabaseUnavailable(error) || isDatabaseClosed(error))
    && (req.app.locals.stopping as (() => boolean) | undefined)?.()) return instanceStopping();
  if (isDatabaseUnavailable(error)) return isWrite(req) && mayHaveBeenStored(error) ? writeOutcomeUnknown()
    : databaseUnavailable();
  const status = (error as { status?: number })?.status;
  const type = (error as { type?: string })?.type;
  // body-parser's errors (RFC 9110 §15.5.14 for 413).
  if (type === 'entity.too.large') return payloadTooLarge();
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return unsupportedMediaType();
  if (type === 'entity.parse.failed') return malformedBody();
  const fromTheValidator = fromValidator(error, req);
  if (fromTheValidator) return fromTheValidator;
  // Any other client error of the body parsers (http-errors marks them `expose`), e.g. a `Content-Encoding: gzip`
  // body that is not gzip: the body cannot be read, so it is not well-formed (a 400, never a 500).
  if ((error as { expose?: unknown })?.expose === true && status && status >= 400 && status < 500) {
    if (status === 413) return payloadTooLarge();
    if (status === 415) return unsupportedMediaType();
    return malformedBody();
  }
  return new InternalError('error.unknown');
}

type ValidatorError = InstanceType<(typeof validator)[keyof typeof validator]>;
const validatorErrors = Object.values(validator);
const requestParts = new Set(['body', 'query', 'headers']);

/**
 * express-openapi-validator's errors, by the classes it exports, mapped to the contract; undefined for any other error.
 */
function fromValidator(error: unknown, req: Request): errors.AppError | undefined {
  if (!validatorErrors.some((type) => error instanceof type)) return undefined;
  const { errors: items = [], headers } = error as ValidatorError & { errors?: ValidatorErrorItem[] };
  if (error instanceof validator.BadRequest) {
    // A path that is not a valid id (`/params/id`), or not even decodable (`/vessel/%E0%A4%A`: the validator then names
    // the URL itself, not a part of the request), names no record (docs/behaviour.md#ids).
    if (items.some((item) => item.path.startsWith('/')
      && !requestParts.has(item.path.split('/')[1]!))) return entityNotFound();
    // The body as a whole is not an object (an array, a string): no field is at fault, like unparsable JSON.
    if (items.some((item) => item.path === '/body')) return malformedBody();
    return new errors.ValidationFailed(fieldProblems(items, operationOf(req)?.contract));
  }
  if (error instanceof validator.NotFound) return pathNotFound();
  if (error instanceof validator.MethodNotAllowed) return methodNotAllowed(headers?.Allow);
  if (error instanceof validator.RequestEntityTooLarge) return payloadTooLarge();
  if (error instanceof validator.UnsupportedMediaType) return unsupportedMediaType();
  return new InternalError('error.unknown');
}
