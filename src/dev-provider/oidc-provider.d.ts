// Minimal type declarations for the parts of oidc-provider 9 (ships no types) that the embedded provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface OidcClient {
    clientId: string;
    clientAuthMethod: string;
    grantTypeAllowed(type: string): boolean;
    redirectUriAllowed(value: string): boolean;
    postLogoutRedirectUriAllowed(value: string): boolean;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string, claims: object, rejected: string[]): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface OidcContext {
    params: Record<string, string | string[] | undefined>;
    client?: OidcClient;
    provider: Provider;
    session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    account?: Account;
    result?: { consent?: { grantId?: string } };
    requestParamScopes: Set<string>;
    requestParamOIDCScopes: Set<string>;
    requestParamClaims: Set<string>;
    resourceServers: Record<string, ResourceServerInfo>;
    entity(key: string, value: unknown): void;
  }

  export interface KoaContextWithOIDC {
    oidc: OidcContext;
    path: string;
    status: number;
    body: unknown;
    type: string;
    /** Koa's parsed query string; assigning it rewrites the request URL's query. */
    query: Record<string, string | string[] | undefined>;
    method: string;
    set(name: string, value: string): void;
    remove(name: string): void;
    response: { is(type: string): string | false; get(name: string): string };
  }

  export interface ResourceServerInfo {
    scope?: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'jwt' | 'opaque';
    jwt?: { sign?: { alg: string } };
  }

  export interface Token {
    kind: string;
    jti: string;
    accountId?: string;
    clientId: string;
    scope?: string;
    expiration: number;
    tokenType: string;
    resourceServer?: ResourceServerInfo;
    save(): Promise<string>;
  }

  export interface StructuredJwt {
    header?: Record<string, unknown>;
    payload: Record<string, unknown>;
  }

  export interface GrantInstance {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface IdTokenInstance {
    scope: string;
    mask: object;
    rejected: string[];
    issue(options: { use: 'idtoken' }): Promise<string>;
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
  }

  type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

  export class Provider {
    constructor(issuer: string, configuration: object);
    issuer: string;
    proxy: boolean;
    Client: { prototype: OidcClient };
    Grant: {
      new (properties: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    AccessToken: new (properties: Record<string, unknown>) => Token;
    RefreshToken: new (properties: Record<string, unknown>) => Token;
    IdToken: new (claims: Record<string, unknown>, options: { ctx: KoaContextWithOIDC }) => IdTokenInstance;
    ResourceServer: new (identifier: string, info: ResourceServerInfo) => ResourceServerInfo;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    use(middleware: Middleware): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    registerGrantType(name: string, handler: (ctx: KoaContextWithOIDC) => Promise<void>, params?: string[], dupes?: string[]): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }

  class OIDCProviderError extends Error {
    error: string;
    error_description?: string;
    status: number;
    statusCode: number;
  }

  export const errors: {
    InvalidGrant: new () => OIDCProviderError;
    InvalidRequest: new (description?: string) => OIDCProviderError;
    InvalidScope: new (description: string, scope: string) => OIDCProviderError;
    InvalidTarget: new (description?: string) => OIDCProviderError;
  };

  export default Provider;
}
