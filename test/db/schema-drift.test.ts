// After the migrations ran, the entities describe the schema exactly: a generated migration would change nothing.
import { expect } from 'chai';
import { backend, sharedService, type TestService } from '../support/service.ts';

describe(`schema drift (${backend})`, () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  it('when the migrated schema is compared with the entities, ' +
    'then MikroORM finds no difference (no index or key would be dropped)', async function () {
    const orm =
      service.web.orm as unknown as { schema: { getUpdateSchemaSQL(options: { wrap: boolean }): Promise<string> } };
    const { schema } = orm;
    expect((await schema.getUpdateSchemaSQL({ wrap: false })).trim()).to.equal('');
  });
});
