// What every screen of the page shares: settings from the service, the session, the API client and cached look-ups.
import type { Api, Schemas } from './api.ts';
import type { Session } from './oidc.ts';

export interface WebSettings {
  apiPath: string;
  issuer: string;
  clientId: string;
  bounds: { sightingMemo: { min: number; max: number }; vesselName: { min: number; max: number } };
  /** The sighting list's sortable fields, from the contract's `sort` pattern and its order parameters. */
  sortable: string[];
  /** Fields ordered by a parameter of their own rather than by `sort`: `{ vesselName: 'vesselNameOrder' }`. */
  orderParameters: Record<string, string>;
}

export interface Context {
  settings: WebSettings;
  session: Session;
  api: Api;
  isAdmin: boolean;
  /** Whether the token carries the `writer` role, which recording a sighting needs. */
  isWriter: boolean;
  /**
   * Shows another screen (a `#…` route), with an optional message announced there; `replace` takes the current
   * screen's place in the history (a saved form: Back then skips it).
   */
  navigate(route: string, notice?: string, options?: { replace?: boolean }): void;
  vessels(): Promise<Schemas['VesselListItem'][]>;
  timezones(): Promise<string[]>;
  /** This screen's own: aborts when the person leaves it, and what it follows live stops. */
  screen: AbortSignal;
}
