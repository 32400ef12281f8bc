// The reviver that keeps a number's text where parsing would round it runs only for texts that may need it: for every
// number text, parsing with the shortcut gives what the reviver gives.
import { expect } from 'chai';
import { parseUnrounded, unrounded } from '../../src/http/unrounded-numbers.ts';

/** A deterministic stream of pseudo-random numbers (a fixed seed: the same texts every run). */
function* randoms(seed: number): Generator<number> {
  for (let state = seed; ;) {
    state = (state * 1103515245 + 12345) % 2147483648;
    yield state / 2147483648;
  }
}

/** Number texts near whole numbers, of 1 to 24 digits, with and without a fraction and an exponent. */
function numberTexts(count: number): string[] {
  const random = randoms(33);
  const pick = () => random.next().value as number;
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(pick() * 10))).join('');
  const texts = ['-1.0000000000000001', '5.00000000000000001', '9007199254740993', '1e-400', '-0.0', '0', '1E2',
    '123456789012345.1', '12345678.0000000001'];
  for (let i = 0; i < count; i++) {
    const whole = `${Math.floor(pick() * 9) + 1}${digits(Math.floor(pick() * 16))}`;
    const near = pick() < 0.5 ? `${'0'.repeat(Math.floor(pick() * 20))}${Math.floor(pick() * 10)}`
      : `${'9'.repeat(1 + Math.floor(pick() * 20))}`;
    const fraction = pick() < 0.7 ? `.${near}` : '';
    const exponent = pick() < 0.2 ? `e${pick() < 0.5 ? '-' : ''}${Math.floor(pick() * 30)}` : '';
    texts.push(`${pick() < 0.3 ? '-' : ''}${whole}${fraction}${exponent}`);
  }
  return texts;
}

describe('numbers in a JSON body', () => {
  it('when a body holds any number text, then the shortcut parses it as the reviver does', () => {
    const texts = numberTexts(5000);
    const kept =
      texts.filter((text) => typeof (JSON.parse(`{"n":${text}}`, unrounded as never) as { n: unknown }).n === 'string');
    // The texts include numbers the reviver keeps as text (else this would check nothing).
    expect(kept.length).to.be.greaterThan(100);
    for (const text of texts) {
      const body = `{"vessel":{"vesselId":${text}},"sightingMemo":"a memo"}`;
      expect(parseUnrounded(body), text).to.deep.equal(JSON.parse(body, unrounded as never));
    }
  });
});
