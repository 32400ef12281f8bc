// Parses request bodies by Content-Type; anything else is left for the validator to answer 415.
import express, { type RequestHandler } from 'express';

export function bodyParsers(limit: string): RequestHandler[] {
  return [express.json({ limit, type: ['application/json', 'application/*+json'] })];
}
