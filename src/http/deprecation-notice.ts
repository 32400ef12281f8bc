// Announces a deprecated operation, parameter or body property that a request uses
// (docs/contract-releases.md#deprecations): `Deprecation` (RFC 9745), `Sunset` (RFC 8594), `Link` to the changelog
// entry; each use is counted.
import type { RequestHandler } from 'express';
import { declaresDeprecationLink, deprecationsOf, type Deprecation } from '../contract/deprecations.ts';
import { operationOf, type ResolvedOperation } from '../contract/resolution.ts';

export type DeprecatedUse = (template: string, method: string, element: string) => void;

/** Where docs/changelog.md is served; each release's entry has the anchor `contract-<version>`. */
export const changelogPath = '/changelog.md';

export function deprecationNotice(counted: DeprecatedUse): RequestHandler {
  const known = new WeakMap<ResolvedOperation, Deprecation[]>();
  const linked = new WeakMap<ResolvedOperation, boolean>();
  return (req, res, next) => {
    const operation = operationOf(req);
    if (!operation) return next();
    let deprecations = known.get(operation);
    if (!deprecations) known.set(operation, deprecations = deprecationsOf(operation.contract));
    const used = deprecations.filter((deprecation) => deprecation.usedBy(req));
    if (used.length > 0) {
      // One value each (RFC 9745 §2.1, RFC 8594 §3): what was deprecated first and what goes first.
      res.setHeader('Deprecation', `@${Math.min(...used.map(({ since }) => since))}`);
      res.setHeader('Sunset', new Date(Math.min(...used.map(({ sunset }) => sunset.getTime()))).toUTCString());
      let withLink = linked.get(operation);
      if (withLink === undefined) linked.set(operation, withLink = declaresDeprecationLink(operation.contract));
      // Only where the answer declares it: a page's Link is the next page's alone (see declaresDeprecationLink).
      if (withLink) {
        res.append('Link', [...new Set(used.map(({ release }) =>
          `<${changelogPath}#contract-${release}>; rel="deprecation"; type="text/markdown"`))]);
      }
      for (const { element } of used) counted(operation.template, operation.method.toUpperCase(), element);
    }
    next();
  };
}
