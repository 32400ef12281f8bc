// The generator's parts that need no copy of the project: a migration's width, and the refusal of files whose shape
// resource:add-field does not know.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { withinWidth } from '../../tools/migration-width.ts';
import { parseField, type Collection } from '../../tools/resource/description.ts';
import { CodeShapeError, descriptorWithField } from '../../tools/resource/field-code.ts';
import { ContractShapeError, withField } from '../../tools/resource/field-part.ts';

const project = new URL('../..', import.meta.url).pathname;
const statement = 'create table "asteroidbeltsurvey" ("asteroidbeltsurvey_id" bigserial primary key, "version" int '
  + 'not null default 0, "asteroid_belt_survey_name" varchar(50) not null, "surveyed_mass_in_kilotons" int not null, '
  + '"surveyed_orbital_period_in_days" int not null);';

describe('the field generator\'s parts', () => {
  it('when a migration\'s statement is longer than the width rule, then it is broken into lines within it that '
    + 'join to the same statement', () => {
    const source = `  override up(): void | Promise<void> {\n    this.addSql(\`${statement}\`);\n  }\n`;
    const wrapped = withinWidth(source);
    const lines = wrapped.split('\n');
    expect(lines.length).to.be.above(source.split('\n').length);
    for (const line of lines) expect(line.length, line).to.be.at.most(120);
    const joined = wrapped.replace(/`\n\s+\+ `/g, '');
    expect(joined).to.equal(source);
  });

  it('when a migration\'s lines fit, then they stay as they are', () => {
    const source = '    this.addSql(`drop table if exists "planet" cascade;`);\n';
    expect(withinWidth(source)).to.equal(source);
  });

  it('when a descriptor has no list of fields one a line, then adding a field to it is refused', () => {
    const file = 'src/resources/planet.resource.ts';
    const source = 'export default {\n  ...fromFields([versionField(), idField(\'planetId\')]),\n};\n';
    expect(() => descriptorWithField(source, parseField('radius:integer(0..)'), file))
      .to.throw(CodeShapeError, /add it by hand/);
  });

  it('when the contract has the field already or not the collection, then adding it is refused', async () => {
    const contract = await readFile(`${project}openapi.yaml`, 'utf8');
    const sighting: Collection = { name: 'sighting', fields: [], read: 'reader', write: 'writer' };
    expect(() => withField(contract, sighting, parseField('memo:text(1..10)')))
      .to.throw(ContractShapeError, /already has SightingMemo/);
    const planet: Collection = { ...sighting, name: 'planet' };
    expect(() => withField(contract, planet, parseField('radius:integer(0..)')))
      .to.throw(ContractShapeError, /no PlanetListItem/);
  });
});
