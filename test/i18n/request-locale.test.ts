// The request's locale is kept per Accept-Language value: a value seen before answers as the detector did, a cookie
// still comes first, and values past the bound (many, or long) are still detected right.
import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { detectLocale } from '../../src/i18n/request-locale.ts';

/** The locale of a request with these headers only. */
const localeOf = (headers: Record<string, string>) =>
  detectLocale({ headers } as unknown as IncomingMessage, {} as ServerResponse);

describe('the request\'s locale', () => {
  it('when an Accept-Language value comes again, then it gets the same locale', () => {
    expect(localeOf({ 'accept-language': 'fr, de;q=0.8' })).to.equal('de');
    expect(localeOf({ 'accept-language': 'fr, de;q=0.8' })).to.equal('de');
    expect(localeOf({})).to.equal('en');
    expect(localeOf({})).to.equal('en');
  });

  it('when a cookie comes with a value seen before, then the cookie still decides', () => {
    expect(localeOf({ 'accept-language': 'de' })).to.equal('de');
    expect(localeOf({ 'accept-language': 'de', cookie: 'i18next=en' })).to.equal('en');
    expect(localeOf({ 'accept-language': 'de', cookie: 'theme=dark' })).to.equal('de');
    expect(localeOf({ cookie: 'i18next=de' })).to.equal('de');
    expect(localeOf({})).to.equal('en');
  });

  it('when more values come than are kept, then each is still detected by itself', () => {
    for (let index = 0; index < 2000; index++) {
      const [first, second] = index % 2 ? ['de', 'en'] : ['en', 'de'];
      const value = `${first};q=0.${index % 9 + 1}, fr, ${second};q=0.${index % 9}5, ja;q=0.0${index + 1}`;
      expect(localeOf({ 'accept-language': value })).to.equal(first, value);
    }
    const long = `${'fr;q=0.9, '.repeat(50)}de`;
    expect(localeOf({ 'accept-language': long })).to.equal('de');
    expect(localeOf({ 'accept-language': long })).to.equal('de');
  });
});
