// docs/configuration.md lists every setting the service reads, and nothing it does not: the page a newcomer is sent to.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { settingNames } from '../../src/config/config.ts';

const page = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
// A table row per setting: | `NAME` | default | meaning |; `OTEL_*` stands for OpenTelemetry's own variables.
const documented = [...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);

describe('configuration page', () => {
  it('when docs/configuration.md is read, then its table names each setting of src/config/config.ts once and no ' +
    'other', () => {
    expect([...documented].sort()).to.deep.equal([...settingNames].sort());
  });

  it('when a newcomer looks for the port, then the page says how to change it before anything else', () => {
    expect(page.split('\n').slice(0, 4).join(' ')).to.match(/PORT=\d+ npm start/);
  });
});
