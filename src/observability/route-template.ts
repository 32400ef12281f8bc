// The route template of a request (`/api/sighting/{id}`): what logs and metrics name, never the raw path.
import type { Request } from 'express';
import { pathTemplate } from '../contract/operations.ts';

const openPaths = ['/health/live', '/health/ready', '/metrics', '/openapi.yaml', '/docs'];

/**
 * Raw paths carry ids, so as a metric label they would grow without bound; a template does not. A request
 * that matches no route is `(unmatched)`. The contract's templates also name requests refused before the
 * validator ran (401, 406).
 */
export function routeTemplate(req: Request, basePath: string): string {
  const validated = (req as { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
  if (validated) return validated;
  // An express route the contract does not describe (e.g. `/health/ready`); its path is a template too.
  if (req.route?.path && typeof req.route.path === 'string') return `${req.baseUrl}${req.route.path}`;
  const path = req.originalUrl.split('?')[0] ?? '';
  if (path.startsWith(`${basePath}/`)) {
    const template = pathTemplate(path.slice(basePath.length));
    if (template) return `${basePath}${template}`;
  }
  if (openPaths.includes(path)) return path;
  if (path.startsWith('/docs/')) return '/docs/{asset}';
  if (path.startsWith('/realms/')) return '/realms/{embedded provider}';
  return '(unmatched)';
}
