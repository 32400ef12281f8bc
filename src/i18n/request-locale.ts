// The request's locale: the `i18next` cookie, then Accept-Language by q-value, then `en` (docs/behaviour.md#views),
// found by i18next's own HTTP language detector.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { LanguageDetector } from 'i18next-http-middleware';
import { messageServices, supportedLocales, type Locale } from './messages.ts';

const order = ['cookie', 'header'];
// `lookupHeaderRegex` is documented in the package's README, not (yet) in its typings.
const options = {
  order,
  lookupCookie: 'i18next',
  // The detector's own pattern, but a tag with q=0 is not matched at all: RFC 9110 §12.4.2, "not acceptable".
  lookupHeaderRegex: /(([a-z]{2,3})-?([A-Z]{2})?)(?![^,]*;\s*q=0(?:\.0{0,3})?\s*(?:,|$))\s*;?\s*(q=([0-9.]+))?/gi,
  caches: false,
  // Language keys may be written `de_AT` (docs/behaviour.md#views): the same tag as `de-AT`.
  convertDetectedLanguage: (tag: string) => tag.replace(/_/g, '-'),
};
const detector = new LanguageDetector(messageServices, options, { fallbackLng: 'en' });

/**
 * The locale of each `Accept-Language` value seen in a request without cookies: most callers send one of a few values,
 * and the detector's work (the header's pattern, an array per tag, its sort) is the same for each. Bounded in count
 * and in the length of a value kept, as any header a caller chooses must be.
 */
const byAcceptLanguage = new Map<string | undefined, Locale>();
const mostValuesKept = 500;
const longestValueKept = 200;

/** The request's locale: asked by its handler, and by the error handler. */
export function requestLocale(req: Request): Locale {
  return detectLocale(req, req.res!);
}

/** The locale of a request node's HTTP server hands over, before (or without) express. */
export function detectLocale(req: IncomingMessage, res: ServerResponse): Locale {
  // A cookie may name the locale, and it comes first.
  if (req.headers.cookie !== undefined) return detectedLocale(req, res);
  const acceptLanguage = req.headers['accept-language'];
  let locale = byAcceptLanguage.get(acceptLanguage);
  if (locale === undefined) {
    locale = detectedLocale(req, res);
    if (acceptLanguage === undefined || acceptLanguage.length <= longestValueKept) {
      // The first key is the oldest kept.
      if (byAcceptLanguage.size >= mostValuesKept) byAcceptLanguage.delete(byAcceptLanguage.keys().next().value);
      byAcceptLanguage.set(acceptLanguage, locale);
    }
  }
  return locale;
}

function detectedLocale(req: IncomingMessage, res: ServerResponse): Locale {
  const found = String(detector.detect(req as Request, res as Response, order) ?? 'en').split('-')[0]!.toLowerCase();
  return supportedLocales.find((candidate) => candidate === found) ?? 'en';
}

/**
 * The first supported language of an OpenID Connect `ui_locales` list (space-separated tags, most preferred first),
 * else the request's locale as above: the login page speaks what the application asked for.
 */
export function uiLocale(uiLocales: unknown, req: Request): Locale {
  const tags = typeof uiLocales === 'string' ? uiLocales.split(' ') : [];
  const asked =
    tags.map((tag) => tag.split(/[-_]/)[0]!.toLowerCase()).find((tag) => supportedLocales.includes(tag as Locale));
  return (asked as Locale | undefined) ?? requestLocale(req);
}
