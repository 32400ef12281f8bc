// Mounts the six generic operations of every resource descriptor on one router.
import { Router } from 'express';
import type { ResourceDescriptor } from './resource-descriptor.ts';
import { crudHandlers } from './handlers.ts';

// A list of descriptors of different entities; each was type-checked against its own entity where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyResource = ResourceDescriptor<any>;

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
