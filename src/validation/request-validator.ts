// express-openapi-validator against openapi.yaml, handed the operation the request was resolved to: it checks the
// request, it does not look the operation up again.
import type { Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { openApiDocument } from '../contract/document.ts';
import { operationOf, pathTextsOf, type ResolvedOperation } from '../contract/resolution.ts';
import { customFormats } from './formats.ts';
import { spendUrlParseWarning } from './url-parse-warned.ts';

/** The validator's request metadata (its `OpenApiRequestMetadata`, what its own lookup leaves on `req.openapi`). */
export interface OpenApiRequestMetadata {
  expressRoute: string;
  openApiRoute: string;
  pathParams: Record<string, string>;
  schema: ResolvedOperation['contract'];
  serial: number;
}

/**
 * The validator's own lookup compiles the pattern of every path of the document on every request until one matches
 * (upstream: cdimascio/express-openapi-validator#1217). The request was resolved once already
 * (src/crud/operation-dispatch.ts), so every path is "ignored" by its lookup (`ignorePaths`, a public option), and its
 * request validation reads the `req.openapi` given here instead. test/architecture/one-resolution.test.ts fails if it
 * ever matches on its own again.
 */
export function requestValidator(basePath: string): RequestHandler[] {
  spendUrlParseWarning();
  const validator = OpenApiValidator.middleware({
    apiSpec: { ...openApiDocument, servers: [{ url: basePath }] } as never,
    ignorePaths: () => true,
    // Bodies are not coerced (a JSON number is no memo, null is no ""); query and path parameters always are.
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
    validateResponses: false,
    validateSecurity: false,
    // No operation of the contract takes multipart/form-data: its step would only look at each request and pass it on.
    fileUploader: false,
    validateFormats: true,
    formats: customFormats,
  });
  // Each operation's two routes, made once, not a string of each per request.
  const routes = new Map<string, Pick<OpenApiRequestMetadata, 'expressRoute' | 'openApiRoute'>>();
  const routesOf = (template: string) => routes.get(template) ?? routes.set(template, {
    expressRoute: `${basePath}${template.replace(/\{(\w+)\}/g, ':$1')}`, openApiRoute: `${basePath}${template}`,
  }).get(template)!;
  const handOver: RequestHandler = (req, _res, next) => {
    const operation = operationOf(req)!;
    const { expressRoute, openApiRoute } = routesOf(operation.template);
    const metadata: OpenApiRequestMetadata = {
      expressRoute,
      openApiRoute,
      pathParams: { ...pathTextsOf(req) },
      schema: operation.contract,
      serial: -1,
    };
    (req as Request & { openapi?: OpenApiRequestMetadata }).openapi = metadata;
    next();
  };
  return [handOver, ...validator];
}
