// What `npm run resource:create` reads from its arguments, and the descriptions it refuses before writing anything.
import { expect } from 'chai';
import { DescriptionError, parseDescription } from '../../tools/resource/description.ts';

describe('the description npm run resource:create reads', () => {
  it('when fields, bounds and roles are given, then each is read with the int32 bound where none is said', () => {
    const args = ['planet', 'planetName:text(2..50)', 'mass:integer(0..)', '--write', 'writer'];
    expect(parseDescription(args)).to.deep.equal({
      name: 'planet',
      fields: [
        { name: 'planetName', type: 'text', min: 2, max: 50 },
        { name: 'mass', type: 'integer', min: 0, max: 2147483647 },
      ],
      read: 'reader',
      write: 'writer',
    });
  });

  for (const [args, reason] of [
    [['Planet', 'name:text(1..5)'], /no collection name/],
    [['planet', 'mass:integer(0..)'], /needs a text field/],
    [['planet', 'name:text(1..)'], /needs a maximum length/],
    [['planet', 'name:text(5..2)'], /minimum is above its maximum/],
    [['planet', 'name:text(1..5)', 'name:text(1..9)'], /two fields have one name/],
    [['planet', 'planetId:text(1..5)'], /server's fields/],
    [['planet', 'name:float(1..5)'], /is no field/],
    [['planet', 'name:text(1..5)', '--read', 'root'], /--read takes one of/],
    [['planet', 'name:text(1..5)', '--owner', 'x'], /unknown option --owner/],
  ] as const) {
    it(`when the description is "${args.join(' ')}", then it is refused: ${reason.source}`, () => {
      expect(() => parseDescription(args)).to.throw(DescriptionError, reason);
    });
  }
});
