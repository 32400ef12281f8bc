// A stand-in realm whose signing keys the test adds, removes and freezes: its certs endpoint can stop answering.
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { accessClaims, REALM_NAME } from './forged-tokens.ts';
import { listenOnLoopback } from './loopback-server.ts';

export interface RealmKey { kid: string; privateKey: CryptoKey; jwk: JWK }

export interface RotatingRealm {
  /** Base URL for the service's KEYCLOAK_URL. */
  url: string;
  issuer: string;
  /** A new key the certs endpoint lists from now on. */
  addKey(): Promise<RealmKey>;
  /** A new key the certs endpoint does not list yet (making one takes a while on a loaded machine). */
  makeKey(): Promise<RealmKey>;
  /** From now on the certs endpoint lists `key`. */
  listKey(key: RealmKey): void;
  removeKey(key: RealmKey): void;
  /** From now on the certs endpoint accepts and never answers (until `thaw`). */
  freeze(): void;
  thaw(): void;
  /** How many times the certs endpoint was asked. */
  fetches(): number;
  /** Access claims (with `overrides`) signed by `key` under `kid` (its own unless given). */
  token(key: RealmKey, overrides?: Record<string, unknown>, kid?: string): Promise<string>;
  close(): Promise<void>;
}

async function makeKey(): Promise<RealmKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256' } };
}

export async function startRotatingRealm(): Promise<RotatingRealm> {
  const keys = new Map<string, RealmKey>();
  const frozen = new Set<ServerResponse>();
  let freezing = false;
  let fetches = 0;
  const server = createServer((req, res) => {
    const certs = `/realms/${REALM_NAME}/protocol/openid-connect/certs`;
    if (req.method !== 'GET' || req.url !== certs) return void res.writeHead(404).end();
    fetches += 1;
    if (freezing) return void frozen.add(res);
    const listed = JSON.stringify({ keys: [...keys.values()].map(({ jwk }) => jwk) });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(listed);
  });
  const url = await listenOnLoopback(server);
  const issuer = `${url}/realms/${REALM_NAME}`;
  return {
    url,
    issuer,
    async addKey() {
      const key = await makeKey();
      keys.set(key.kid, key);
      return key;
    },
    makeKey,
    listKey: (key) => void keys.set(key.kid, key),
    removeKey: (key) => void keys.delete(key.kid),
    freeze: () => { freezing = true; },
    thaw: () => { freezing = false; },
    fetches: () => fetches,
    token: (key, overrides = {}, kid = key.kid) => new SignJWT(accessClaims(issuer, overrides))
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid }).sign(key.privateKey),
    close: () => new Promise<void>((resolve, reject) => {
      for (const res of frozen) res.destroy();
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    }),
  };
}

/** A TCP server that accepts connections and never answers on them: a frozen identity provider. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => { sockets.add(socket); socket.on('error', () => undefined); });
  const url = await listenOnLoopback(server);
  return {
    url,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
