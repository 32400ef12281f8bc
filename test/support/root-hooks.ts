// Mocha root hooks: start the shared service (and its contract proxy) before any test file, stop it once every file has
// run.
import { sharedService, stopSharedService } from './service.ts';
import { openConnectionPerRequest } from './connection-per-request.ts';

openConnectionPerRequest();

export const mochaHooks = {
  // Here rather than in a file's `before`, so Prism's start-up has a budget of its own on a busy machine.
  async beforeAll(this: Mocha.Context): Promise<void> {
    await sharedService();
  },
  async afterAll(): Promise<void> {
    await stopSharedService();
  },
};
