// Reads a Keycloak realm export (the subset the embedded provider serves) and resolves its ${ENV:default} placeholders.
import { readFile } from 'node:fs/promises';

export interface RealmCredential {
  type?: string;
  value?: string;
  // Hashed credentials as Keycloak exports them: JSON strings.
  secretData?: string;
  credentialData?: string;
}

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

export interface RealmRole {
  name: string;
  composite?: boolean;
  composites?: { realm?: string[] };
}

export interface RealmClient {
  clientId: string;
  enabled?: boolean;
  bearerOnly?: boolean;
  publicClient?: boolean;
  secret?: string;
  standardFlowEnabled?: boolean;
  implicitFlowEnabled?: boolean;
  directAccessGrantsEnabled?: boolean;
  serviceAccountsEnabled?: boolean;
  redirectUris?: string[];
  webOrigins?: string[];
  attributes?: Record<string, string>;
}

export interface Realm {
  realm: string;
  displayName?: string;
  accessTokenLifespan?: number;
  ssoSessionIdleTimeout?: number;
  roles?: { realm?: RealmRole[] };
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

function resolveTree(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') return resolvePlaceholders(value, env);
  if (Array.isArray(value)) return value.map((item) => resolveTree(item, env));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveTree(item, env)]));
  }
  return value;
}

export function parseRealm(json: string, env: NodeJS.ProcessEnv): Realm {
  const realm = resolveTree(JSON.parse(json), env) as Realm;
  if (typeof realm.realm !== 'string' || realm.realm === '') {
    throw new Error('realm export has no "realm" name');
  }
  return realm;
}

export async function loadRealm(file: string, env: NodeJS.ProcessEnv): Promise<Realm> {
  let json: string;
  try {
    json = await readFile(file, 'utf8');
  } catch (cause) {
    throw new Error(`cannot read the realm export ${file}`, { cause });
  }
  return parseRealm(json, env);
}
