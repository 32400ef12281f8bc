// Checks the caller's realm role before the body is read or validated: without the role it is 403, never a 400
// that would tell the caller the schema's rules. Driven by each resource descriptor's access rules.
import type { RequestHandler } from 'express';
import { requireRole, type AccessRules, type Principal, type Role } from './access-rules.ts';

/** The least role an operation needs; who owns a sighting is checked later, on the record. */
function roleFor(access: AccessRules, method: string, rest: string[]): Role | 'writer or admin' | undefined {
  const onCollection = rest.length === 0 || (rest.length === 1 && rest[0] === '');
  if (onCollection) return method === 'POST' ? access.create : method === 'GET' || method === 'HEAD' ? access.read : undefined;
  if (method === 'POST' && rest.length === 1 && rest[0] === 'qbe') return access.read;
  if (method === 'GET' || method === 'HEAD') return access.read;
  if (method === 'PUT' || method === 'DELETE') return access.change === 'creator' ? 'writer or admin' : access.change;
  return undefined;
}

export function roleGate(resources: ReadonlyArray<{ name: string; access: AccessRules }>): RequestHandler {
  const byName = new Map(resources.map((resource) => [resource.name, resource]));
  return (req, res, next) => {
    const [, name = '', ...rest] = req.path.split('/');
    const resource = byName.get(name);
    const role = resource && roleFor(resource.access, req.method, rest);
    const principal = res.locals.principal as Principal;
    // A record's creator needs `writer` to change it; `admin` may change anyone's (contract B, Authorization).
    if (role === 'writer or admin') {
      if (!principal.roles.has('admin')) requireRole(principal, 'writer');
    } else if (role) {
      requireRole(principal, role);
    }
    next();
  };
}
