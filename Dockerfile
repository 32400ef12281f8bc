# syntax=docker/dockerfile:1
# The sighting registry as an image: production dependencies in one stage, a slim non-root runtime in the next.
# Not built by CI (no Docker there): scripts/check-deploy-files.sh and test/ops/deploy-files.test.ts check what can be checked.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=dev: the runtime is the image's Node 24, not the `node` npm package (a devDependency), and pino-pretty
# (pretty logs at a developer's terminal) stays out.
# --ignore-scripts: `prepare` builds the web page with Vite, a devDependency; the page comes from the next stage.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS web
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY openapi.yaml ./
COPY generated ./generated
COPY locales ./locales
COPY web ./web
RUN npm run build:web

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0
WORKDIR /app
# Owned by root and read-only for the process: the service writes nothing to its own folder.
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=web /app/web/dist ./web/dist
COPY package.json openapi.yaml ./
COPY docs/changelog.md ./docs/
COPY locales ./locales
COPY keycloak ./keycloak
COPY src ./src
# The official image's unprivileged user.
USER node
EXPOSE 8080
# Ready means the database answers (GET /health/ready, on MANAGEMENT_PORT when set); Node 24 has fetch, so no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.MANAGEMENT_PORT || process.env.PORT}/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node 24 runs the TypeScript sources as they are (type stripping), as `npm start` does.
# --expose-gc: memory goes back after a peak of open streams (src/feed/memory-after-peaks.ts).
CMD ["node", "--expose-gc", "src/server.ts"]
