# syntax=docker/dockerfile:1
#
# Adline's production image. With MySQL and Redis beside it: `docker compose up` (compose.yaml,
# secrets in .env; see docs/deployment.md, "Docker Compose"). On its own:
#
#   docker build -t adline .
#   docker run -p 3000:3000 \
#     -e CLICK_SIGNING_SECRET="$(openssl rand -base64 48)" \
#     -e SESSION_SECRET="$(openssl rand -base64 48)" \
#     -e DATABASE_URL=mysql://adline:<password>@<mysql host>:3306/adline \
#     -e BASE_URL=https://ads.example.com \
#     adline
#
# In production (NODE_ENV=production, set below):
#   CLICK_SIGNING_SECRET  required (at least 32 characters): start-up fails without it. Keep it
#                         stable and equal on every instance, or issued tracking links stop
#                         being valid.
#   SESSION_SECRET        required (at least 32 characters); signs dashboard and API sessions.
#   DATABASE_URL          should be mysql://user:pass@host:3306/db (or mariadb://… for MariaDB).
#                         The default, sqlite:./data/adline.sqlite, only suits a single
#                         container with a volume mounted on /app/data.
#   BASE_URL              the public address of the service, used in tracking links.
#   HOST                  defaults to 0.0.0.0 in production, which a container needs.
# Pending migrations run at start-up. No demo data is seeded in production.
#
# scripts/replay-dockerfile.mjs runs these stages' RUN, COPY and CMD lines in temporary
# folders (CI has no Docker engine), and scripts/check-container.mjs lints this file.

# Node 22, not 24: better-sqlite3 12 aborts on Node 24.19+ (see the README).
ARG NODE_IMAGE=node:22-bookworm-slim

# better-sqlite3 is a native addon: when no prebuilt binary fits, npm compiles it, which
# needs python3, make and g++. Only the stages that install modules carry the toolchain.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./

FROM toolchain AS build
# The lock file lists every platform's optional binaries, so npm ci installs exactly it.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# The production modules are the build's less the dev dependencies: nothing compiles twice.
FROM build AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# Writable by the app user, for the SQLite default (mount a volume here to keep it).
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
# Slim images have no curl; Node has fetch. Liveness only: compose.yaml gates on readiness.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A larger young generation than V8's 16 MiB per semi-space: fewer scavenges, less promoted
# to the old space, shorter stalls under load (BENCHMARKS.md, round two). On the command line,
# so that an operator's own NODE_OPTIONS cannot drop it; also in package.json's start:prod.
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
