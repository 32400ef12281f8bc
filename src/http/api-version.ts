// Every answer names the contract release it follows (docs/contract-releases.md#versions): `API-Version:
// <info.version>`.
import type { RequestHandler } from 'express';
import { openApiDocument } from '../contract/document.ts';

export const apiVersion = (openApiDocument as unknown as { info: { version: string } }).info.version;

export const apiVersionHeader: RequestHandler = (_req, res, next) => {
  res.setHeader('API-Version', apiVersion);
  next();
};
