// Security requirements compared: every way a client authenticated before must still be accepted (OpenAPI 3.1
// §4.8.30: the requirements of an operation are alternatives, the schemes inside one are all needed).
import { isNode, type Contract, type Node } from './document.ts';
import { code, type Finding } from './finding.ts';

type Requirement = Map<string, string[]>;

function requirementsOf(contract: Contract, operation: Node): Requirement[] {
  const declared = operation.security ?? contract.root.security;
  const list = Array.isArray(declared) ? declared.filter(isNode) : [];
  // No requirement at all is an anonymous call, the same as the empty requirement `{}`.
  if (!list.length) return [new Map()];
  return list.map((requirement) => new Map(Object.entries(requirement).map(([scheme, scopes]) =>
    [scheme, Array.isArray(scopes) ? scopes.map(String) : []])));
}

const show = (requirement: Requirement) => (requirement.size
  ? [...requirement].map(([scheme, scopes]) => (scopes.length ? `${scheme}[${scopes.join(', ')}]` : scheme)).join(' + ')
  : 'anonymous');

/** A client that meets `had` meets `needs`: `needs` asks for no scheme and no scope that `had` did not. */
const meets = (had: Requirement, needs: Requirement) =>
  [...needs].every(([scheme, scopes]) => had.has(scheme) && scopes.every((scope) => had.get(scheme)!.includes(scope)));

export function securityChanges(old: Contract, next: Contract, oldOperation: Node, newOperation: Node,
  operation: string): Finding[] {
  const before = requirementsOf(old, oldOperation);
  const after = requirementsOf(next, newOperation);
  const list = (requirements: Requirement[]) => code(requirements.map(show).join(' | '));
  if (list(before) === list(after)) return [];
  const stranded = before.filter((had) => !after.some((needs) => meets(had, needs)));
  const message = `security ${list(before)} → ${list(after)}`;
  return [{
    level: stranded.length ? 'breaking' : 'compatible',
    operation,
    where: 'security',
    message: stranded.length ? `${message}: a client using ${list(stranded)} is refused now` : message,
  }];
}

/** A security scheme that kept its name but changed how a credential is sent. */
export function schemeChanges(old: Contract, next: Contract): Finding[] {
  const schemes = (contract: Contract) => {
    const components = contract.root.components;
    return isNode(components) && isNode(components.securitySchemes) ? components.securitySchemes : {};
  };
  const oldSchemes = schemes(old);
  const newSchemes = schemes(next);
  const findings: Finding[] = [];
  for (const [name, raw] of Object.entries(oldSchemes)) {
    // A requirement that still names a removed scheme is invalid; one that does not is compared per operation.
    if (!(name in newSchemes)) continue;
    const was = old.resolve(raw).node;
    const is = next.resolve(newSchemes[name]).node;
    for (const field of ['type', 'scheme', 'in', 'name', 'openIdConnectUrl']) {
      if (was[field] === is[field]) continue;
      findings.push({ level: 'breaking', operation: 'contract', where: `security scheme ${code(name)}`,
        message: `${field} ${code(String(was[field]))} → ${code(String(is[field]))}` });
    }
  }
  return findings;
}
