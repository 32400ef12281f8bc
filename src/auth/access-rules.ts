// Who may do what (docs/behaviour.md#roles): realm roles, and a sighting's creator.
import type { Response } from 'express';
import { notOwner } from '../errors/refusals.ts';

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
  /** The token's `preferred_username` (else its subject): what a record's history shows admins. */
  username: string;
  roles: ReadonlySet<string>;
  /** When the token expires (its `exp`, in milliseconds since the epoch): a stream ends then. */
  expiresAt: number;
}

/**
 * Whether the caller may change a record `creator` made (docs/behaviour.md#roles): the role check
 * (src/auth/role-check.ts) settled whether its roles reach only its own records; the roles are not read again.
 */
export function requireOwnership(res: Response, creator: string | null | undefined): void {
  if (reachesOwnRecordsOnly(res) && creator !== (res.locals.principal as Principal).subject) throw notOwner();
}

/** Whether the role check found that the caller's roles reach only the records it created. */
export function reachesOwnRecordsOnly(res: Response): boolean {
  return res.locals.ownRecordsOnly !== false;
}
