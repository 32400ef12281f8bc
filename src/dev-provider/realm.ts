// Reads the Keycloak realm export (the parts the development provider serves) and resolves its ${ENV:default}
// placeholders.
import { readFile } from 'node:fs/promises';
import type { RealmCredential } from './password-hashes.ts';

export interface RealmUser {
  id?: string;
  username: string;
  enabled?: boolean;
  firstName?: string;
  lastName?: string;
  email?: string;
  emailVerified?: boolean;
  credentials?: RealmCredential[];
  realmRoles?: string[];
  serviceAccountClientId?: string;
}

export interface RealmClient {
  clientId: string;
  enabled?: boolean;
  bearerOnly?: boolean;
  publicClient?: boolean;
  secret?: string;
  standardFlowEnabled?: boolean;
  directAccessGrantsEnabled?: boolean;
  serviceAccountsEnabled?: boolean;
  redirectUris?: string[];
  webOrigins?: string[];
  attributes?: Record<string, string>;
}

export interface Realm {
  realm: string;
  displayName?: string;
  defaultLocale?: string;
  localizationTexts?: Record<string, Record<string, string>>;
  accessTokenLifespan?: number;
  ssoSessionIdleTimeout?: number;
  /** Refresh-token rotation: each refresh token is redeemed once (`refreshTokenMaxReuse` 0). */
  revokeRefreshToken?: boolean;
  bruteForceProtected?: boolean;
  failureFactor?: number;
  waitIncrementSeconds?: number;
  maxFailureWaitSeconds?: number;
  roles?: { realm?: Array<{ name: string; composites?: { realm?: string[] } }> };
  defaultRole?: { name: string };
  clients?: RealmClient[];
  users?: RealmUser[];
}

// Keycloak resolves `${NAME}`, `${NAME:default}` and `${env.NAME:default}` at import time; do the same.
const PLACEHOLDER = /\$\{(?:env\.)?([A-Za-z_][A-Za-z0-9_.]*)(?::([^}]*))?\}/g;

export function resolvePlaceholders(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(PLACEHOLDER, (whole: string, name: string, fallback: string | undefined) =>
    env[name] ?? fallback ?? whole);
}

export async function loadRealm(file: string, env: NodeJS.ProcessEnv): Promise<Realm> {
  const json = await readFile(file, 'utf8').catch((cause: unknown) => {
    throw new Error(`cannot read the realm export ${file}`, { cause });
  });
  // The reviver sees every string of the export, so placeholders resolve wherever they stand.
  const realm = JSON.parse(json, (_key, value: unknown) => typeof value === 'string' ? resolvePlaceholders(value, env)
    : value) as Realm;
  if (typeof realm.realm !== 'string' || realm.realm === '') throw new Error('realm export has no "realm" name');
  return realm;
}

/**
 * The realm's name as its pages show it in `locale`: like Keycloak's themes, a display name of the form `${key}` is the
 * realm's own text `key` in that language (else in the realm's default language), so the name can be translated.
 */
export function displayNameIn(realm: Realm, locale: string): string {
  const name = realm.displayName ?? realm.realm;
  const key = /^\$\{([^}]+)\}$/.exec(name)?.[1];
  if (key === undefined) return name;
  const texts = realm.localizationTexts ?? {};
  return texts[locale]?.[key] ?? texts[realm.defaultLocale ?? 'en']?.[key] ?? realm.realm;
}
