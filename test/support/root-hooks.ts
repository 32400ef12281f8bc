// Mocha root hooks: stop the shared service once every test file has run.
import { stopSharedService } from './service.ts';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopSharedService();
  },
};
