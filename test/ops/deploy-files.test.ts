// The deploy files agree with the service: Dockerfile and compose.yaml set only settings src/config/config.ts knows,
// and run what exists.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadConfig, settingNames } from '../../src/config/config.ts';

const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
type Service = { image?: string; build?: string; environment?: Record<string, string>; volumes?: string[];
  command?: string[]; healthcheck?: unknown; depends_on?: Record<string, { condition: string }> };
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
// Built from the Dockerfile: the instances run its CMD, the migration step a command of its own.
const built = Object.entries(compose.services).filter(([, service]) => service.build === '.');
const apis = built.filter(([, service]) => !service.command);
const dockerfile = read('Dockerfile').replace(/\\\n/g, ' ');
const instructions = dockerfile.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));

/** Compose's `${NAME:-default}` as the default, the way the file would be started without a .env. */
const interpolated = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('deploy files', () => {
  it('when compose.yaml is read, then it runs two API instances built from the Dockerfile, a primary, a replica, ' +
    'Keycloak and a load balancer', () => {
    expect(apis.map(([name]) => name)).to.deep.equal(['api-1', 'api-2']);
    expect(Object.keys(compose.services))
      .to.include.members(['postgres-primary', 'postgres-replica', 'keycloak', 'load-balancer']);
  });

  it('when compose.yaml starts the instances, then a migrate step has run first and each instance only checks the ' +
    'migrations, with health and metrics on the management port', () => {
    expect(built.filter(([, service]) => service.command).map(([name, service]) => [name, service.command]))
      .to.deep.equal([['migrate', ['node', 'src/lifecycle/migrate-command.ts']]]);
    for (const [name, service] of apis) {
      expect(service.depends_on?.migrate, name).to.deep.equal({ condition: 'service_completed_successfully' });
      const config = loadConfig(service.environment ?? {});
      expect({ migrate: config.MIGRATE_AT_START, management: config.MANAGEMENT_PORT }, name)
        .to.deep.equal({ migrate: false, management: 9090 });
    }
    expect(read('deploy/nginx.conf'), 'nginx proxies the public port only').not.to.include('9090');
  });

  it('when the API instances\' environment is read, ' +
    'then every variable is a setting of src/config/config.ts and the values pass its validation', () => {
    for (const [name, service] of apis) {
      const environment = Object.fromEntries(Object.entries(service.environment ?? {})
        .map(([key, value]) => [key, interpolated(String(value))]));
      expect(Object.keys(environment).filter((key) => !settingNames.includes(key)), name).to.deep.equal([]);
      const config = loadConfig(environment);
      expect({ replicas: config.DATABASE_REPLICA_URLS.length, keycloak: config.KEYCLOAK_URL,
        production: config.NODE_ENV }, name)
        .to.deep.equal({ replicas: 1, keycloak: 'http://keycloak:8180', production: 'production' });
    }
  });

  it('when the Dockerfile is read, then its ENV names settings only, it installs without devDependencies, ' +
    'runs as a non-root user, checks health and starts src/server.ts', () => {
    const env = instructions.filter((line) => line.startsWith('ENV '))
      .flatMap((line) => [...line.slice(4).matchAll(/([A-Z_]+)=/g)].map((m) => m[1]!));
    expect(env.filter((key) => !settingNames.includes(key))).to.deep.equal([]);
    expect(instructions.filter((line) => line.startsWith('FROM ')).length, 'stages').to.be.at.least(2);
    expect(instructions.some((line) => /^FROM node:24|^FROM \$\{NODE_IMAGE\}/.test(line))).to.equal(true);
    expect(dockerfile).to.match(/^ARG NODE_IMAGE=node:24[-\w.]*$/m);
    expect(instructions.filter((line) => line.startsWith('RUN ')).join('\n')).to.include('npm ci --omit=dev');
    const user = instructions.filter((line) => line.startsWith('USER ')).at(-1);
    expect(user).to.be.a('string').and.not.match(/^USER (root|0)(:|$)/);
    expect(instructions.find((line) => line.startsWith('HEALTHCHECK '))).to.include('/health/ready');
    // --expose-gc, as `npm start` runs it: memory goes back after a peak of streams (src/feed/memory-after-peaks.ts).
    expect(instructions.at(-1)).to.equal('CMD ["node", "--expose-gc", "src/server.ts"]');
  });

  it('when the Dockerfile copies from the project and compose.yaml mounts files, then every one of them exists', () => {
    const copied = instructions.filter((line) => line.startsWith('COPY ') && !line.includes('--from'))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    const mounted = Object.values(compose.services).flatMap((service) => service.volumes ?? [])
      .filter((volume) => volume.startsWith('./')).map((volume) => volume.split(':')[0]!);
    for (const file of [...copied, ...mounted, 'src/server.ts'])
      expect(existsSync(new URL(file, root)), file).to.equal(true);
  });
});
