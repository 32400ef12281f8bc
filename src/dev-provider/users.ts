// The realm's users as tokens show them: stable ids, effective realm roles, Keycloak's profile claims, password checks.
import { createHash, timingSafeEqual } from 'node:crypto';
import { matchesHash, passwordHashOf, type PasswordHash } from './password-hashes.ts';
import type { Realm, RealmUser } from './realm.ts';

export interface User {
  id: string;
  username: string;
  roles: string[];
  serviceAccountClientId?: string;
  passwords: string[];
  /** Passwords in Keycloak's hashed form (how a realm with a password policy keeps its development users). */
  passwordHashes: PasswordHash[];
  // The "profile" and "email" claims of Keycloak's built-in mappers.
  profile: Record<string, unknown>;
}

// Keycloak's user ids are UUIDs; when the export omits them derive one from realm and username
// (SHA-1 name-based, RFC 9562 §5.5 layout) so `sub` stays the same across restarts.
function stableId(realm: string, username: string): string {
  const hex = createHash('sha1').update(`${realm}/${username}`).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

// Effective roles = the granted ones plus everything reachable through composite roles, as in Keycloak's tokens.
function expandRoles(realm: Realm, granted: string[]): string[] {
  const byName = new Map((realm.roles?.realm ?? []).map((role) => [role.name, role]));
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const child of byName.get(name)?.composites?.realm ?? []) visit(child);
  };
  granted.forEach(visit);
  return [...seen];
}

function profileClaims(user: RealmUser): Record<string, unknown> {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return Object.fromEntries(Object.entries({
    email_verified: user.email ? user.emailVerified === true : undefined,
    name: name || undefined,
    preferred_username: user.username.toLowerCase(),
    given_name: user.firstName,
    family_name: user.lastName,
    email: user.email,
  }).filter(([, value]) => value !== undefined));
}

export function realmUsers(realm: Realm): User[] {
  return (realm.users ?? []).filter((user) => user.enabled !== false
    && typeof user.username === 'string').map((user) => ({
    id: user.id ?? stableId(realm.realm, user.username),
    username: user.username.toLowerCase(),
    // A user listed without roles gets the realm's default role, like a newly created Keycloak user.
    roles: expandRoles(realm, user.realmRoles ?? (realm.defaultRole ? [realm.defaultRole.name] : [])),
    serviceAccountClientId: user.serviceAccountClientId,
    passwords: (user.credentials ?? []).flatMap((c) => (c.type ?? 'password') === 'password' && c.value !== undefined
      ? [c.value] : []),
    passwordHashes: (user.credentials ?? []).flatMap((c) => passwordHashOf(c) ?? []),
    profile: profileClaims(user),
  }));
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

export class UserDirectory {
  readonly #users: User[];
  // Digests of passwords a hash already matched: PBKDF2 is slow on purpose, and a developer's tools log in often.
  readonly #matched = new Map<string, Set<string>>();

  constructor(users: User[]) {
    this.#users = users;
  }

  byId(id: string): User | undefined {
    return this.#users.find((user) => user.id === id);
  }

  serviceAccountOf(clientId: string): User | undefined {
    return this.#users.find((user) => user.serviceAccountClientId === clientId);
  }

  // The user only when the password is right; a miss and a wrong password look the same. Service accounts cannot log
  // in.
  authenticate(username: string, password: string): User | undefined {
    const user = this.#users.find((candidate) => candidate.username === username.toLowerCase()
      && !candidate.serviceAccountClientId);
    if (!user) return undefined;
    // Equal-length digests: the comparison takes the same time however much of the password is right.
    if (user.passwords.some((value) => timingSafeEqual(digest(value), digest(password)))) return user;
    const known = digest(password).toString('base64');
    if (this.#matched.get(user.id)?.has(known)) return user;
    if (!user.passwordHashes.some((hash) => matchesHash(password, hash))) return undefined;
    this.#matched.set(user.id, (this.#matched.get(user.id) ?? new Set()).add(known));
    return user;
  }
}
