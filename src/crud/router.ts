// Mounts the six generic operations of every resource descriptor on one router.
import { Router } from 'express';
import type { AnyResource } from './resource-descriptor.ts';
import { crudHandlers } from './handlers.ts';

export function crudRouter(resources: readonly AnyResource[]): Router {
  const router = Router();
  for (const resource of resources) {
    const handle = crudHandlers(resource);
    const collection = `/${resource.name}`;
    router.get(collection, handle.list);
    router.post(collection, handle.create);
    router.post(`${collection}/qbe`, handle.queryByExample);
    router.get(`${collection}/:id`, handle.read);
    router.put(`${collection}/:id`, handle.update);
    router.delete(`${collection}/:id`, handle.remove);
  }
  return router;
}
