// Builds the express application: documents and health open, the collections behind token and contract checks.
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config.ts';
import { openApiDocument } from './validation/openapi-document.ts';
import { customFormats } from './validation/formats.ts';
import { negotiate } from './http/negotiation.ts';
import { bodyParsers } from './http/body-parsers.ts';
import { errorHandler } from './errors/error-handler.ts';
import { NotFound } from './errors/app-errors.ts';
import { entityManagerPerRequest } from './db/request-context.ts';
import { crudRouter } from './crud/router.ts';
import { resources } from './resources/index.ts';
import { tokenCheck } from './auth/token-check.ts';
import { roleGate } from './auth/role-gate.ts';
import { healthRouter } from './health.ts';
import { docsRouter } from './docs.ts';
import { mountAuthorizationServer } from './auth/authorization-server.ts';

export async function createApp(config: Config, orm: MikroORM): Promise<Express> {
  const app = express();
  app.disable('x-powered-by');
  // ETags are record versions, set by the handlers; express's body hashes would contradict them.
  app.set('etag', false);
  app.set('query parser', 'simple');

  const authServerUrl = await mountAuthorizationServer(app, config);
  const realmUrl = `${authServerUrl}/realms/${config.KEYCLOAK_REALM}`;
  app.use('/health', healthRouter(orm));
  app.use(docsRouter({ publicUrl: config.PUBLIC_URL && config.publicUrl, basePath: config.BASE_PATH, realmUrl, implicitFlow: Boolean(config.KEYCLOAK_URL) }));

  const api = express.Router();
  api.use(negotiate);
  api.use(tokenCheck({ serverUrl: authServerUrl, realm: config.KEYCLOAK_REALM, audience: config.TOKEN_AUDIENCE }));
  // Before the body is read or validated: a caller without the role gets 403, not the schema's 400s.
  api.use(roleGate(resources));
  api.use(bodyParsers(config.BODY_LIMIT));
  api.use(OpenApiValidator.middleware({
    apiSpec: { ...openApiDocument, servers: [{ url: config.BASE_PATH }] } as never,
    // Bodies are not coerced (a JSON number is no memo, null is no ""); query and path parameters always are.
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
    validateResponses: false,
    validateSecurity: false,
    validateFormats: true,
    formats: customFormats,
  }));
  api.use(entityManagerPerRequest(orm));
  api.use(crudRouter(resources));
  app.use(config.BASE_PATH, api);

  app.use((_req, _res) => { throw new NotFound('error.notFound'); });
  app.use(errorHandler);
  return app;
}
