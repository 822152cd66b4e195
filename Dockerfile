# One recipe, one target per service:
#   docker build --target gateway -t adrank/gateway .
# Targets: gateway, ledger, scorer, panel-voter, refinement, dashboard, migrate.
# Services run from their TypeScript sources (Node 24 strips types), so an image holds the
# sources of services/ and packages/ plus production node_modules; there is no build stage.
ARG NODE_IMAGE=node:24-slim

# Only the manifests and the lock reach the install step, so editing a source file does not
# re-run npm.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && cp package.json package-lock.json .npmrc /manifests/ \
 && find packages services test infra -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# `npm install` driven by the lock rather than `npm ci`: npm 11 leaves other platforms'
# optional binaries (turbo's) out of the lock and `npm ci` then rejects it (npm/cli#4828).
# Install scripts stay off: no production dependency needs one (sharp ships prebuilt
# binaries as @img/* packages). Plain Dockerfile syntax only (no `# syntax=` line, no cache
# mounts): the legacy builder that docker-compose 1.29 drives builds it too, and no frontend
# image has to be pulled. The layer cache still skips npm while the manifests are unchanged.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf /root/.npm

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Files stay owned by root and read-only to the service user: a compromised process cannot
# rewrite its own code.
COPY --from=deps /app/ ./
COPY packages/ ./packages/
COPY services/ ./services/
COPY infra/docker/healthcheck.ts ./infra/docker/healthcheck.ts
# uid 1000 is the image's `node` user; numeric so that Kubernetes can verify runAsNonRoot.
USER 1000:1000

FROM runtime AS gateway
# The drift watch's fixed reference batch (npm run drift; the CronJob runs it from this image).
COPY examples/ads/ ./examples/ads/
COPY examples/drift/ ./examples/drift/
ENV PORT=8080 HOST=0.0.0.0
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:8080/healthz"]
CMD ["node", "--import", "@adrank/telemetry/register", "services/gateway/src/main.ts"]

FROM runtime AS ledger
ENV HEALTH_PORT=9464
EXPOSE 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:9464/healthz"]
CMD ["node", "--import", "@adrank/telemetry/register", "services/ledger/src/main.ts"]

FROM runtime AS scorer
ENV HEALTH_PORT=9464
EXPOSE 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:9464/healthz"]
CMD ["node", "--import", "@adrank/telemetry/register", "services/scorer/src/main.ts"]

FROM runtime AS panel-voter
ENV HEALTH_PORT=9464
EXPOSE 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:9464/healthz"]
CMD ["node", "--import", "@adrank/telemetry/register", "services/panel-voter/src/main.ts"]

FROM runtime AS refinement
ENV HEALTH_PORT=9464
EXPOSE 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:9464/healthz"]
CMD ["node", "--import", "@adrank/telemetry/register", "services/refinement/src/main.ts"]

FROM runtime AS dashboard
# The console's front end is built into the image (as root, so it stays read-only to the
# service); at start the server finds it current and builds nothing.
USER 0:0
# Vite reads the console's tsconfig, which extends the root one.
COPY tsconfig.base.json ./
RUN node services/dashboard/src/build-web.ts --force
USER 1000:1000
ENV DASHBOARD_PORT=8090
EXPOSE 8090
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "infra/docker/healthcheck.ts", "http://127.0.0.1:8090/healthz"]
CMD ["node", "--import", "@adrank/telemetry/register", "services/dashboard/src/main.ts"]

# One-shot: applies pending migrations and exits (advisory-locked, safe to run concurrently).
FROM runtime AS migrate
CMD ["node", "packages/db/src/migrate-cli.ts"]
