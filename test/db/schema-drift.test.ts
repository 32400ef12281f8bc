// After the migrations ran, the entities describe the schema exactly: a generated migration would change nothing.
import { expect } from 'chai';
import { backend, sharedService } from '../support/service.ts';

describe(`schema drift (${backend})`, () => {
  it('when the migrated schema is compared with the entities, then MikroORM finds no difference (no index or key would be dropped)', async () => {
    const { web } = await sharedService();
    const schema = (web.orm as unknown as { schema: { getUpdateSchemaSQL(options: { wrap: boolean }): Promise<string> } }).schema;
    expect((await schema.getUpdateSchemaSQL({ wrap: false })).trim()).to.equal('');
  });
});
