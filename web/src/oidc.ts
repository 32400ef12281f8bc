// Signs in with the authorization code flow and PKCE (RFC 7636, S256) against the realm the service names, and
// refreshes tokens.
import { locale } from './i18n.ts';

export interface Settings {
  issuer: string;
  clientId: string;
}

interface Tokens {
  access: string;
  refresh?: string;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number;
}

interface Endpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
}

const STORE = 'sighting.tokens';
const PENDING = 'sighting.pending-sign-in';
/**
 * In localStorage: a sign-out in any tab stops silent sign-in in every new tab, and the next sign-in asks for a
 * password.
 */
const SIGNED_OUT = 'sighting.signed-out';
/** In sessionStorage, with the issuer: the provider's endpoints, as its discovery document names them. */
const DISCOVERED = 'sighting.discovered';
/** In sessionStorage: where the last sign-in came back to, for a stale return reached by Back. */
const RETURNED_TO = 'sighting.returned-to';
/**
 * In localStorage: someone signed in in this browser, so the provider may know them. Only then does a new tab ask the
 * provider silently: a first visit shows the welcome screen at once, with no round trip to the provider.
 */
const SIGNED_IN_BEFORE = 'sighting.signed-in-before';
/** In sessionStorage: a tab tries silent sign-in once. */
const SILENT_TRIED = 'sighting.silent-sign-in';
/** What a provider answers to `prompt=none` when it would have to show a page (OpenID Connect Core §3.1.2.6). */
const NEEDS_INTERACTION = ['login_required', 'interaction_required', 'consent_required', 'account_selection_required'];

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const random = (): string => base64url(crypto.getRandomValues(new Uint8Array(32)));

export class Session {
  private endpoints?: Endpoints;
  private tokens?: Tokens;
  private refreshing?: Promise<boolean>;
  private timer?: number;
  /** Called when the session ends by itself (refresh refused): the page shows "signed out". */
  onSignedOut: () => void = () => {};

  constructor(private readonly settings: Settings) {
    const stored = sessionStorage.getItem(STORE);
    if (stored) this.store(JSON.parse(stored) as Tokens);
  }

  /**
   * The provider's endpoints, kept for the tab: the return from the provider then trades its code without asking
   * for them again (one round trip less between the login form and the first screen).
   */
  private async discover(): Promise<Endpoints> {
    if (this.endpoints) return this.endpoints;
    const key = `${DISCOVERED}:${this.settings.issuer}`;
    const kept = sessionStorage.getItem(key);
    this.endpoints = kept ? JSON.parse(kept) as Endpoints
      : await fetch(`${this.settings.issuer}/.well-known/openid-configuration`)
      .then((r) => {
        if (!r.ok) throw new Error(`discovery: ${r.status}`);
        return r.json() as Promise<Endpoints>;
      });
    sessionStorage.setItem(key, JSON.stringify(this.endpoints));
    return this.endpoints;
  }

  /** This page, without query or fragment: a loopback redirect URI the realm registers for sighting-web. */
  private get redirectUri(): string {
    return `${location.origin}${location.pathname}`;
  }

  get signedIn(): boolean {
    return this.tokens !== undefined;
  }

  /** The access token's claims, for the page's own display (name, roles); the API checks the token itself. */
  get claims(): { preferred_username?: string; sub?: string; realm_access?: { roles?: string[] } } {
    if (!this.tokens) return {};
    const payload = this.tokens.access.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0)))) as never;
  }

  /**
   * Whether this tab should first ask the provider without showing anything: a new tab while the provider's session
   * lives on signs in by itself (no password), unless the person signed out.
   */
  shouldTrySilently(): boolean {
    if (this.signedIn || !localStorage.getItem(SIGNED_IN_BEFORE) || localStorage.getItem(SIGNED_OUT)) return false;
    if (sessionStorage.getItem(SILENT_TRIED)) return false;
    sessionStorage.setItem(SILENT_TRIED, '1');
    return true;
  }

  async signIn(returnTo: string, { silent = false } = {}): Promise<void> {
    const { authorization_endpoint } = await this.discover();
    const verifier = random();
    const state = random();
    const challenge =
      base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
    sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, returnTo, silent }));
    const url = new URL(authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId, response_type: 'code', redirect_uri: this.redirectUri, scope: 'openid',
      state, code_challenge: challenge, code_challenge_method: 'S256',
      // The login page in the page's language (OpenID Connect Core §3.1.2.1), which may be the menu's, not the
      // browser's.
      ui_locales: locale(),
      // After "sign out" the next person must type a password even if the provider's own session lives on.
      ...(localStorage.getItem(SIGNED_OUT) && { prompt: 'login' }),
      ...(silent && { prompt: 'none' }),
    }).toString();
    // In place of this history entry: the sign-in is a gate, not a place; Back after it goes where the person was
    // before (see completeSignIn for the provider's page, which stays in the history once a password was typed).
    location.replace(url.href);
  }

  /**
   * On return from the provider: trades the code for tokens. Gives the page to show next, or undefined when not a
   * return.
   */
  async completeSignIn(): Promise<string | undefined> {
    const params = new URLSearchParams(location.search);
    const pending = sessionStorage.getItem(PENDING);
    if (!(params.has('code') || params.has('error'))) return undefined;
    if (!pending) return this.staleReturn();
    sessionStorage.removeItem(PENDING);
    history.replaceState(null, '', this.redirectUri);
    const { verifier, state, returnTo, silent } =
      JSON.parse(pending) as { verifier: string; state: string; returnTo: string; silent: boolean };
    // RFC 6749 §10.12: the state ties the answer to the request this page made.
    if (params.get('state') !== state) throw new Error('sign-in answer does not match the request (state)');
    // No provider session: the silent attempt ends signed out, with nothing to report, and is not tried again until
    // the next sign-in.
    if (silent && NEEDS_INTERACTION.includes(params.get('error') ?? '')) {
      localStorage.removeItem(SIGNED_IN_BEFORE);
      return returnTo;
    }
    const code = params.get('code');
    if (!code) throw new Error(params.get('error_description') ?? params.get('error') ?? 'sign-in failed');
    const ok = await this.tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: this.redirectUri,
      code_verifier: verifier });
    if (!ok) throw new Error('the provider refused the sign-in code');
    localStorage.removeItem(SIGNED_OUT);
    localStorage.setItem(SIGNED_IN_BEFORE, '1');
    sessionStorage.setItem(RETURNED_TO, returnTo);
    return returnTo;
  }

  /**
   * The callback address without a sign-in under way: Back reached the provider's login page, which (its session
   * alive) sent a new code here. Never left showing `?code=…`: the entry becomes the place the sign-in came back to,
   * and a Back goes on past it, as the person meant.
   */
  private staleReturn(): Promise<string> {
    const returnTo = sessionStorage.getItem(RETURNED_TO) ?? '';
    history.replaceState(null, '', `${this.redirectUri}${returnTo}`);
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    if (navigation?.type !== 'back_forward') return Promise.resolve(returnTo);
    history.back();
    // The page is leaving: nothing is shown or asked for meanwhile.
    return new Promise(() => undefined);
  }

  /** A fresh access token, refreshing first when it is about to expire. */
  async accessToken(): Promise<string | undefined> {
    if (this.tokens && this.tokens.expiresAt - Date.now() < 30_000) await this.refresh();
    return this.tokens?.access;
  }

  /** Refresh token grant (RFC 6749 §6); one at a time however many calls ask. */
  refresh(): Promise<boolean> {
    this.refreshing ??= (async () => {
      const refresh = this.tokens?.refresh;
      const ok = refresh !== undefined
        && await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: refresh }).catch(() => false);
      if (!ok) this.end();
      return ok;
    })().finally(() => { this.refreshing = undefined; });
    return this.refreshing;
  }

  async signOut(): Promise<void> {
    const refresh = this.tokens?.refresh;
    const { revocation_endpoint } = await this.discover();
    localStorage.setItem(SIGNED_OUT, '1');
    this.clear();
    // RFC 7009: the refresh token dies with the session here; best effort, the page is signed out either way.
    if (refresh && revocation_endpoint) {
      await fetch(revocation_endpoint, { method: 'POST', body: new URLSearchParams({ token: refresh,
        token_type_hint: 'refresh_token', client_id: this.settings.clientId }) }).catch(() => undefined);
    }
  }

  private async tokenRequest(grant: Record<string, string>): Promise<boolean> {
    const { token_endpoint } = await this.discover();
    const response = await fetch(token_endpoint,
      { method: 'POST', body: new URLSearchParams({ ...grant, client_id: this.settings.clientId }) });
    if (!response.ok) return false;
    const body = await response.json() as { access_token: string; refresh_token?: string; expires_in?: number };
    this.store({ access: body.access_token, refresh: body.refresh_token ?? this.tokens?.refresh,
      expiresAt: Date.now() + (body.expires_in ?? 300) * 1000 });
    return true;
  }

  private store(tokens: Tokens): void {
    this.tokens = tokens;
    sessionStorage.setItem(STORE, JSON.stringify(tokens));
    // Refresh ahead of expiry, so an open page stays signed in.
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.refresh(), Math.max(tokens.expiresAt - Date.now() - 30_000, 1_000));
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.tokens = undefined;
    sessionStorage.removeItem(STORE);
  }

  private end(): void {
    this.clear();
    this.onSignedOut();
  }
}
