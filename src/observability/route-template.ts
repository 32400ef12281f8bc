// The route template of a request (`/api/sighting/{id}`): what logs and metrics name, never the raw path.
import type { Request } from 'express';
import { operationOf } from '../contract/resolution.ts';

const openPaths = ['/health/live', '/health/ready', '/metrics', '/openapi.yaml', '/docs'];

/**
 * Raw paths carry ids, so as a metric label they would grow without bound; a template does not. A request
 * that matches no route is `(unmatched)`. An operation's template also names its requests refused before the
 * validator ran (401, 406).
 */
export function routeTemplate(req: Request, basePath: string): string {
  const operation = operationOf(req);
  if (operation) return `${basePath}${operation.template}`;
  // An express route the contract does not describe (e.g. `/health/ready`); its path is a template too.
  if (req.route?.path && typeof req.route.path === 'string') return `${req.baseUrl}${req.route.path}`;
  const path = req.originalUrl.split('?')[0] ?? '';
  if (openPaths.includes(path)) return path;
  if (path.startsWith('/docs/')) return '/docs/{asset}';
  if (path.startsWith('/realms/')) return '/realms/{embedded provider}';
  return '(unmatched)';
}
