// The contract as served at /openapi.yaml: this instance's origin and base path, its provider's URLs and flows.
import { parseDocument, type Document } from 'yaml';
import { openApiText } from '../contract/document.ts';

export interface ServedContractOptions {
  /** PUBLIC_URL when configured: it wins over the origin a request was sent to. */
  publicUrl?: string;
  basePath: string;
  /** The realm's URL at the configured authorization server, e.g. `http://127.0.0.1:8180/realms/sighting`. */
  realmUrl: string;
  /** Keycloak offers the implicit flow (client `sighting-legacy`); the embedded provider does not. */
  implicitFlow: boolean;
  /** For `/docs`: only the flow a browser page completes (authorization code, PKCE), and a description saying so. */
  browserFlowsOnly?: boolean;
}

// Swagger UI shows a scheme's description in its Authorize dialog: the reader learns there why one flow is offered.
const browserFlowsDescription = `Signing in here uses the one OAuth 2.0 flow a browser page can complete:
authorization code with PKCE (S256), client \`sighting-web\`; "Authorize" opens the realm's sign-in page. The
password (\`sighting-cli\`) and client credentials (\`sighting-service\`) flows are not offered on this page,
because the realm refuses them to a web page (a client secret, or an origin it does not allow): use them from a
program or the command line, as \`/openapi.yaml\` describes. The access token is sent as the \`bearer\` scheme's
token.`;

// The committed file names the default instance (`npm start`): the embedded provider on localhost:8080.
const committedRealm = 'http://localhost:8080/realms/sighting';
// Distinct origins are few (localhost, 127.0.0.1, a host name or two); a bound keeps odd Host headers from piling up.
const cacheLimit = 16;

/** Returns the served text for the origin a request was sent to (contract: servers and flows name this instance). */
export function servedContract(options: ServedContractOptions): (origin: string) => string {
  const { publicUrl, basePath, realmUrl, implicitFlow, browserFlowsOnly = false } = options;
  // Parsed when first asked for, not at start: few instances are asked for their contract, and parsing takes 0.1 s.
  let template: Document | undefined;
  const templateOf = () => {
    // The committed realm's URL is in the oauth2 flows only.
    const parsed = parseDocument(openApiText.replaceAll(committedRealm, () => realmUrl));
    const oauth2 = ['components', 'securitySchemes', 'oauth2'];
    if (browserFlowsOnly) {
      for (const flow of ['password', 'clientCredentials']) parsed.deleteIn([...oauth2, 'flows', flow]);
      parsed.setIn([...oauth2, 'description'], browserFlowsDescription);
    } else if (implicitFlow) {
      const implicit = { authorizationUrl: `${realmUrl}/protocol/openid-connect/auth`, scopes: {} };
      parsed.setIn([...oauth2, 'flows', 'implicit'], parsed.createNode(implicit));
    }
    return parsed;
  };

  const cache = new Map<string, string>();
  return (origin) => {
    const server = `${publicUrl ?? origin}${basePath}`;
    let text = cache.get(server);
    if (text === undefined) {
      template ??= templateOf();
      const document = template.clone();
      document.setIn(['servers', 0, 'url'], server);
      document.setIn(['servers', 0, 'description'], 'This service.');
      text = document.toString({ lineWidth: 0 });
      if (cache.size >= cacheLimit) cache.clear();
      cache.set(server, text);
    }
    return text;
  };
}
