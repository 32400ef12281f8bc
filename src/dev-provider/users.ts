// The realm's users as the embedded provider needs them: stable ids, effective realm roles, password checks.
import { createHash, pbkdf2Sync, timingSafeEqual } from 'node:crypto';
import type { Realm, RealmCredential, RealmUser } from './realm.ts';

export interface User {
  id: string;
  username: string;
  roles: string[];
  firstName?: string;
  lastName?: string;
  email?: string;
  emailVerified?: boolean;
  serviceAccountClientId?: string;
  credentials: RealmCredential[];
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

export function realmUsers(realm: Realm): User[] {
  return (realm.users ?? [])
    .filter((user: RealmUser) => user.enabled !== false && typeof user.username === 'string')
    .map((user: RealmUser) => {
      // A user listed without roles gets the realm's default role, like a newly created Keycloak user.
      const granted = user.realmRoles ?? (realm.defaultRole ? [realm.defaultRole.name] : []);
      return {
        id: user.id ?? stableId(realm.realm, user.username),
        username: user.username.toLowerCase(),
        roles: expandRoles(realm, granted),
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        emailVerified: user.emailVerified,
        serviceAccountClientId: user.serviceAccountClientId,
        credentials: user.credentials ?? [],
      };
    });
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

const PBKDF2_DIGESTS: Record<string, string> = { pbkdf2: 'sha1', 'pbkdf2-sha256': 'sha256', 'pbkdf2-sha512': 'sha512' };

function credentialMatches(credential: RealmCredential, password: string): boolean {
  if (credential.type !== undefined && credential.type !== 'password') return false;
  if (typeof credential.value === 'string') {
    const digest = (text: string) => createHash('sha256').update(text).digest();
    return sameBytes(digest(credential.value), digest(password));
  }
  if (credential.secretData && credential.credentialData) {
    // Keycloak's hashed export: secretData {value, salt} (base64), credentialData {algorithm, hashIterations}.
    const secret = JSON.parse(credential.secretData) as { value?: string; salt?: string };
    const data = JSON.parse(credential.credentialData) as { algorithm?: string; hashIterations?: number };
    const digest = PBKDF2_DIGESTS[data.algorithm ?? ''];
    if (!digest || !secret.value || !secret.salt || !data.hashIterations) return false;
    const expected = Buffer.from(secret.value, 'base64');
    const actual = pbkdf2Sync(password, Buffer.from(secret.salt, 'base64'), data.hashIterations, expected.length, digest);
    return sameBytes(expected, actual);
  }
  return false;
}

export function passwordMatches(user: User, password: string): boolean {
  return user.credentials.some((credential) => credentialMatches(credential, password));
}

export class UserDirectory {
  readonly #users: User[];

  constructor(users: User[]) {
    this.#users = users;
  }

  byId(id: string): User | undefined {
    return this.#users.find((user) => user.id === id);
  }

  // Service accounts cannot log in interactively or with the password grant.
  byUsername(username: string): User | undefined {
    const wanted = username.toLowerCase();
    return this.#users.find((user) => user.username === wanted && !user.serviceAccountClientId);
  }

  serviceAccountOf(clientId: string): User | undefined {
    return this.#users.find((user) => user.serviceAccountClientId === clientId);
  }

  // Returns the user only when the password is right; a miss and a wrong password look the same.
  authenticate(username: string, password: string): User | undefined {
    const user = this.byUsername(username);
    return user && passwordMatches(user, password) ? user : undefined;
  }
}
