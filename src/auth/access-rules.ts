// Who may do what (contract B, Authorization): realm roles, and a sighting's creator.
import { Forbidden } from '../errors/app-errors.ts';

export type Role = 'reader' | 'writer' | 'admin';

export interface AccessRules {
  read: Role;
  create: Role;
  /** Update and delete: a role, or the record's creator (and `admin`) when the resource keeps one. */
  change: Role | 'creator';
}

/** The caller, as its access token says. */
export interface Principal {
  subject: string;
  roles: ReadonlySet<string>;
}

export function requireRole(principal: Principal, role: Role): void {
  if (!principal.roles.has(role)) throw new Forbidden('error.forbidden');
}

export function requireChange(principal: Principal, rules: AccessRules, creator: string | null | undefined): void {
  if (rules.change !== 'creator') return requireRole(principal, rules.change);
  if (principal.roles.has('admin')) return;
  requireRole(principal, 'writer');
  if (creator !== principal.subject) throw new Forbidden('error.notOwner');
}
