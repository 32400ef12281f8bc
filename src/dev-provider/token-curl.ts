// Builds the one-line curl command that fetches a token from the embedded provider with the password grant.

// POSIX shell single-quoting, applied only when a value needs it.
function shellQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export interface TokenCurlOptions {
  issuer: string;
  clientId?: string;
  username?: string;
  password?: string;
}

export function passwordGrantCurl(options: TokenCurlOptions): string {
  const fields: Array<[string, string]> = [
    ['grant_type', 'password'],
    ['client_id', options.clientId ?? 'sighting-cli'],
    ['username', options.username ?? 'alice'],
    ['password', options.password ?? 'alice'],
  ];
  // --data-urlencode keeps odd characters in credentials intact; plain -d is fine for the usual ones.
  const args = fields.map(([name, value]) => /^[A-Za-z0-9_.-]*$/.test(value)
    ? `-d ${name}=${value}`
    : `--data-urlencode ${shellQuote(`${name}=${value}`)}`);
  return ['curl -s', ...args, shellQuote(`${options.issuer}/protocol/openid-connect/token`)].join(' ');
}

/** The shell line `npm start` prints and the README shows: it sets TOKEN to a fresh access token. */
export function tokenAssignment(options: TokenCurlOptions): string {
  return `TOKEN=$(${passwordGrantCurl(options)} | node -p 'JSON.parse(require("fs").readFileSync(0)).access_token')`;
}
