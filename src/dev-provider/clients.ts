// Turns the realm's Keycloak clients into oidc-provider client metadata, plus Keycloak-style wildcard URI matching.
import type { Realm, RealmClient } from './realm.ts';

export interface ClientMetadata {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method: 'none' | 'client_secret_basic';
  grant_types: string[];
  response_types: string[];
  redirect_uris: string[];
  application_type: 'web';
}

export interface ClientPolicy {
  redirectUris: string[];
  webOrigins: string[];
  pkceRequired: boolean;
}

// oidc-provider insists on concrete redirect_uris in metadata; the real (wildcard) check is ClientPolicy's.
const PLACEHOLDER_REDIRECT = 'https://redirect-uri.invalid/';

// Keycloak allows `*` wildcards in redirect URIs and web origins; `*` here matches any run of characters.
export function matchesPattern(value: string, pattern: string): boolean {
  const regex = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${regex}$`).test(value);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

// RFC 8252 §7.3: loopback redirect URIs may use any port, so a registered URI without a port matches them all.
function withoutLoopbackPort(value: string): string | undefined {
  const url = URL.parse(value);
  if (!url || url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.port === '') return undefined;
  url.port = '';
  return url.href;
}

export function uriAllowed(value: string, patterns: string[]): boolean {
  const portless = withoutLoopbackPort(value);
  return patterns.some((pattern) => matchesPattern(value, pattern)
    || (portless !== undefined && matchesPattern(portless, pattern)));
}

// Web origin "+" means "the origins of the redirect URIs" in Keycloak.
function origins(client: RealmClient): string[] {
  return (client.webOrigins ?? []).flatMap((origin) => origin === '+'
    ? (client.redirectUris ?? []).map((uri) => uri.replace(/^([a-z]+:\/\/[^/]+).*$/i, '$1'))
    : [origin]);
}

function grantTypes(client: RealmClient): string[] {
  const grants: string[] = [];
  // Keycloak defaults standardFlowEnabled to true and the other flows to false.
  if (client.standardFlowEnabled !== false) grants.push('authorization_code');
  if (client.directAccessGrantsEnabled === true) grants.push('password');
  if (grants.length > 0 && client.attributes?.['use.refresh.tokens'] !== 'false') grants.push('refresh_token');
  if (client.serviceAccountsEnabled === true && client.publicClient !== true) grants.push('client_credentials');
  // implicitFlowEnabled is ignored on purpose: the embedded provider offers no implicit grant (RFC 9700 §2.1.2).
  return grants;
}

export interface RealmClients {
  metadata: ClientMetadata[];
  policies: Map<string, ClientPolicy>;
}

export function realmClients(realm: Realm): RealmClients {
  const metadata: ClientMetadata[] = [];
  const policies = new Map<string, ClientPolicy>();
  for (const client of realm.clients ?? []) {
    if (client.enabled === false || client.bearerOnly === true) continue;
    const grants = grantTypes(client);
    // A client that could only use flows we do not offer (e.g. implicit-only) is left out.
    if (grants.length === 0) continue;
    const isPublic = client.publicClient === true;
    const code = grants.includes('authorization_code');
    metadata.push({
      client_id: client.clientId,
      ...(isPublic ? {} : { client_secret: client.secret ?? '' }),
      token_endpoint_auth_method: isPublic ? 'none' : 'client_secret_basic',
      grant_types: grants,
      response_types: code ? ['code'] : [],
      redirect_uris: code ? [PLACEHOLDER_REDIRECT] : [],
      application_type: 'web',
    });
    policies.set(client.clientId, {
      redirectUris: client.redirectUris ?? [],
      webOrigins: origins(client),
      // PKCE (RFC 7636) is required where the realm asks for S256, and always for public clients (RFC 9700 §2.1.1).
      pkceRequired: isPublic || client.attributes?.['pkce.code.challenge.method'] === 'S256',
    });
  }
  return { metadata, policies };
}
