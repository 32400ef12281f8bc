// Reads the protected header of a compact JWS for what is decided before any signature check: its key id and `crit`.

/** What the header says, or undefined when it is no JSON object (such a token is refused by the signature check). */
export interface JoseHeader {
  kid: string | undefined;
  /** Whether the header lists extensions the recipient must understand (RFC 7515 §4.1.11). */
  critical: boolean;
}

/** The header of a token already known to be three base64url segments (src/auth/bearer-token.ts). */
export function joseHeaderOf(token: string): JoseHeader | undefined {
  try {
    const encoded = token.slice(0, token.indexOf('.'));
    const header: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (typeof header !== 'object' || header === null) return undefined;
    const kid = Object.hasOwn(header, 'kid') ? (header as { kid: unknown }).kid : undefined;
    // The service understands no JWS extension, so any `crit` names one it does not know (and `[]`, or a name the
    // RFC itself defines, is invalid anyway): §4.1.11 says such a token MUST be refused.
    return { kid: typeof kid === 'string' ? kid : undefined, critical: Object.hasOwn(header, 'crit') };
  } catch {
    return undefined;
  }
}
