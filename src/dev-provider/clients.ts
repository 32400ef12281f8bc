// Turns the realm's Keycloak clients into oidc-provider client metadata, and matches URIs against Keycloak's patterns.
import type { ClientMetadata } from 'oidc-provider';
import type { Realm, RealmClient } from './realm.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

// Keycloak's patterns are exact, or end in `*` for "anything from here on" (`*` alone: everything).
function matches(value: string, pattern: string): boolean {
  return pattern.endsWith('*') ? value.startsWith(pattern.slice(0, -1)) : value === pattern;
}

// RFC 8252 §7.3: loopback redirect URIs may use any port, so a registered URI without a port matches them all.
function withoutLoopbackPort(value: string): string | undefined {
  const url = URL.parse(value);
  if (url?.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.port === '') return undefined;
  url.port = '';
  return url.href;
}

export function uriAllowed(value: string, patterns: string[] = []): boolean {
  const portless = withoutLoopbackPort(value);
  return patterns.some((pattern) => matches(value, pattern) || (portless !== undefined && matches(portless, pattern)));
}

function grantTypes(client: RealmClient): string[] {
  const grants: string[] = [];
  // Keycloak defaults standardFlowEnabled to true and the other flows to false.
  if (client.standardFlowEnabled !== false) grants.push('authorization_code');
  if (client.directAccessGrantsEnabled === true) grants.push('password');
  if (grants.length > 0 && client.attributes?.['use.refresh.tokens'] !== 'false') grants.push('refresh_token');
  if (client.serviceAccountsEnabled === true && client.publicClient !== true) grants.push('client_credentials');
  // implicitFlowEnabled is ignored on purpose: there is no implicit grant here (RFC 9700 §2.1.2).
  return grants;
}

// The clients that can use a flow offered here, by id (bearer-only and implicit-only ones are left out).
export type RealmClients = Map<string, RealmClient & { metadata: ClientMetadata }>;

export function realmClients(realm: Realm): RealmClients {
  const clients: RealmClients = new Map();
  for (const client of realm.clients ?? []) {
    const grants = grantTypes(client);
    if (client.enabled === false || client.bearerOnly === true || grants.length === 0) continue;
    const code = grants.includes('authorization_code');
    clients.set(client.clientId, {
      ...client,
      metadata: {
        client_id: client.clientId,
        // Confidential clients default to client_secret_basic; oidc-provider takes the secret from the body too.
        ...(client.publicClient === true ? { token_endpoint_auth_method: 'none' }
          : { client_secret: client.secret ?? '' }),
        grant_types: grants,
        response_types: code ? ['code'] : [],
        // Keycloak's patterns; oidc-provider would compare them exactly, so index.ts replaces redirectUriAllowed.
        redirect_uris: code ? client.redirectUris ?? [] : [],
      },
    });
  }
  return clients;
}
