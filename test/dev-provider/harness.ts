// Test harness: a bare express app on 127.0.0.1:0 with only the development provider, serving /realms/sighting.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createDevProvider } from '../../src/dev-provider/index.ts';

export const REALM_FILE = fileURLToPath(new URL('../../keycloak/sighting-realm.json', import.meta.url));

export interface Harness {
  base: string;
  issuer: string;
  tokenUrl: string;
  close(): Promise<void>;
}

export async function startProvider(): Promise<Harness> {
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { router, issuer } = await createDevProvider({ issuer: `${base}/realms/sighting`, realmFile: REALM_FILE });
  app.use(router);
  return {
    base,
    issuer,
    tokenUrl: `${issuer}/protocol/openid-connect/token`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export interface TokenAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function postToken(url: string, form: Record<string, string>,
  headers: Record<string, string> = {}): Promise<TokenAnswer> {
  const response = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(form) });
  return { status: response.status, headers: response.headers, body: await response.json() as Record<string, unknown> };
}

export function passwordGrant(harness: Harness, username: string, password: string): Promise<TokenAnswer> {
  return postToken(harness.tokenUrl, { grant_type: 'password', client_id: 'sighting-cli', username, password });
}

export function claimsOf(jwt: unknown): Record<string, unknown> {
  const part = String(jwt).split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}
