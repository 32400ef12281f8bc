// The request's locale: the `i18next` cookie, then Accept-Language by q-value, then `en` (contract B, Views).
import type { Request } from 'express';
import { supportedLocales, type Locale } from './messages.ts';

export function requestLocale(req: Request): Locale {
  const cookie = /(?:^|;\s*)i18next=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
  const candidates = [...(cookie ? [decoded(cookie)] : []), ...acceptedLanguages(req.headers['accept-language'])];
  for (const tag of candidates) {
    const language = tag.toLowerCase().split(/[-_]/)[0];
    const match = supportedLocales.find((locale) => locale === language);
    if (match) return match;
  }
  return 'en';
}

/** The cookie's value without its percent-encoding; a malformed one (`%E0%A4%A`) names no language, it never throws. */
function decoded(cookie: string): string {
  try {
    return decodeURIComponent(cookie);
  } catch {
    return '';
  }
}

/** RFC 9110 §12.5.4: the tags in order of preference; q=0 means "not acceptable". */
function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header.split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? 1);
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter(({ tag, q }) => tag && tag !== '*' && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}
