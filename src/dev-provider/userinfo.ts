// Keycloak-style UserInfo endpoint (OpenID Connect Core §5.3): oidc-provider's own refuses JWT access tokens for an
// API.
import type { KeyObject } from 'node:crypto';
import express from 'express';
import type { Request, Response } from 'express';
import { jwtVerify } from 'jose';
import { ROUTES } from './configuration.ts';
import type { UserDirectory } from './users.ts';

// RFC 6750 §3: a failed bearer check answers 401 with a WWW-Authenticate challenge.
function refuse(res: Response, description: string): void {
  res.status(401)
    .set('WWW-Authenticate', `Bearer realm="sighting", error="invalid_token", error_description="${description}"`)
    .json({ error: 'invalid_token', error_description: description });
}

// RFC 6750 §2.1 (header) and §2.2 (form body) are both accepted, as Keycloak does.
function bearerToken(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  const body = req.body as Record<string, unknown> | undefined;
  return match?.[1] ?? (typeof body?.access_token === 'string' ? body.access_token : undefined);
}

export function userinfoRouter(options: {
  issuer: string; publicKey: KeyObject; users: UserDirectory }): express.Router {
  const handler = async (req: Request, res: Response): Promise<void> => {
    const token = bearerToken(req);
    if (!token) {
      refuse(res, 'Token not provided');
      return;
    }
    try {
      const { payload } = await jwtVerify(token, options.publicKey, { issuer: options.issuer, algorithms: ['RS256'] });
      const user = payload.typ === 'Bearer' && payload.sub ? options.users.byId(payload.sub) : undefined;
      if (!user) throw new Error('unknown subject');
      res.set('Cache-Control', 'no-store').json({ sub: user.id, ...user.profile });
    } catch {
      refuse(res, 'Token verification failed');
    }
  };
  return express.Router().get(ROUTES.userinfo, handler).post(ROUTES.userinfo, express.urlencoded({ extended: false }),
    handler);
}
