// Prints a realm-export credential in Keycloak's hashed form for a password: a realm with a password policy imports
// hashed credentials as they are, while a plain `value` that breaks the policy fails the whole import.
// Usage: node scripts/keycloak/hash-password.ts <password>
import { hashedCredential } from '../../src/dev-provider/password-hashes.ts';

const password = process.argv[2];
if (!password) {
  console.error('usage: node scripts/keycloak/hash-password.ts <password>');
  process.exit(2);
}
console.log(JSON.stringify(hashedCredential(password), null, 2));
