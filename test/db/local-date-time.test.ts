// A `timestamp(3)` read from PostgreSQL or PGlite, in any shape they give it, becomes the wire's
// `yyyy-MM-ddTHH:mm:ss.SSS`.
import { expect } from 'chai';
import { localDateTimeText } from '../../src/db/local-date-time-text.ts';

describe('a stored local date-time as the wire writes it', () => {
  it('when the database gives text with a space or a T, and a fraction of none to three digits, ' +
    'then it is the wire\'s text', () => {
    const read = ['2026-11-22 21:30:00', '2026-11-22 21:30:00.5', '2026-11-22 21:30:00.05', '2026-11-22 21:30:00.123',
      '2026-11-22T21:30:00.25', '2026-11-22'];
    expect(read.map(localDateTimeText)).to.deep.equal([
      '2026-11-22T21:30:00.000', '2026-11-22T21:30:00.500', '2026-11-22T21:30:00.050', '2026-11-22T21:30:00.123',
      '2026-11-22T21:30:00.250', '2026-11-22T00:00:00.000',
    ]);
  });

  it('when it is a Date, null or missing, then it is the Date\'s UTC text, or null', () => {
    expect([new Date(Date.UTC(2026, 10, 22, 21, 30, 0, 7)), null, undefined].map(localDateTimeText))
      .to.deep.equal(['2026-11-22T21:30:00.007', null, null]);
  });
});
