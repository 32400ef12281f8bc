// Parses request bodies by Content-Type (JSON, XML); anything else is left for the validator to answer 415.
import express, { type RequestHandler } from 'express';
import { xmlBodyParser } from './xml/xml-body-parser.ts';
import { unrounded } from './unrounded-numbers.ts';

export function bodyParsers(limit: string): RequestHandler[] {
  return [express.json({ limit, type: ['application/json', 'application/*+json'], reviver: unrounded }), ...xmlBodyParser(limit, unrounded)];
}
