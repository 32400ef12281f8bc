// Keycloak's stored password form (PBKDF2: `secretData` and `credentialData` of a realm export's credential), checked.
import { pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

/** A credential of a realm export: a plain `value`, or Keycloak's hash of it. */
export interface RealmCredential { type?: string; value?: string; secretData?: string; credentialData?: string }

/** What a user's password is checked against: its hash, salt, iterations and digest. */
export interface PasswordHash { hash: Buffer; salt: Buffer; iterations: number; digest: 'sha1' | 'sha256' | 'sha512' }

const digests = { 'pbkdf2': 'sha1', 'pbkdf2-sha256': 'sha256', 'pbkdf2-sha512': 'sha512' } as const;
// Keycloak 26's own iterations for pbkdf2-sha256 (its default algorithm's count is higher and the export says which).
const defaultIterations = 27_500;

/** The hash a realm credential holds, or undefined when it is no password, or a form other than Keycloak's PBKDF2. */
export function passwordHashOf(credential: RealmCredential): PasswordHash | undefined {
  const { type = 'password', secretData, credentialData } = credential;
  if (type !== 'password' || !secretData || !credentialData) return undefined;
  const secret = JSON.parse(secretData) as { value?: string; salt?: string };
  const data = JSON.parse(credentialData) as { hashIterations?: number; algorithm?: string };
  const algorithm = data.algorithm ?? '';
  const digest = Object.hasOwn(digests, algorithm) ? digests[algorithm as keyof typeof digests] : undefined;
  if (!digest || !secret.value || !secret.salt || !data.hashIterations) return undefined;
  const [hash, salt] = [Buffer.from(secret.value, 'base64'), Buffer.from(secret.salt, 'base64')];
  return { hash, salt, iterations: data.hashIterations, digest };
}

/** Whether `password` is the one hashed: the derived key as long as the stored one, compared in constant time. */
export function matchesHash(password: string, { hash, salt, iterations, digest }: PasswordHash): boolean {
  return timingSafeEqual(pbkdf2Sync(password, salt, iterations, hash.length, digest), hash);
}

type HashedCredential = RealmCredential & { temporary: false };
const noParameters = { additionalParameters: {} };

/** A realm credential in Keycloak's hashed form (pbkdf2-sha256, 512-bit key), as its export writes one. */
export function hashedCredential(password: string, iterations = defaultIterations): HashedCredential {
  const salt = randomBytes(16);
  const value = pbkdf2Sync(password, salt, iterations, 64, 'sha256');
  return {
    type: 'password',
    secretData: JSON.stringify({ value: value.toString('base64'), salt: salt.toString('base64'), ...noParameters }),
    credentialData: JSON.stringify({ hashIterations: iterations, algorithm: 'pbkdf2-sha256', ...noParameters }),
    temporary: false,
  };
}
