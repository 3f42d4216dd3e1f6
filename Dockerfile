# One image for every Travelog role (ROLE=api|projector|webhooks|all). Node 24 LTS is the
# production runtime; the code also runs on Node 20.19+, the development machines' version.
#
# Two stages: the build stage compiles the TypeScript with tsc (dev dependencies present); the
# runtime stage holds the compiled JavaScript and production dependencies only, and runs it with
# `node` directly. Not `npm start`: npm does not pass SIGTERM on to its child, so `docker stop`
# would never reach the graceful shutdown (in-flight requests and webhook attempts finished and
# recorded) and the container would be killed after the grace period.
#
# PID 1: node itself is PID 1 here. start.ts installs SIGTERM/SIGINT handlers, so the kernel's
# PID-1 signal rule (no default action) does not matter, and the process spawns no children that
# could be left as zombies. docker-compose.yml still sets `init: true` (tini as PID 1), which
# forwards signals and reaps; with plain `docker run`, `--init` does the same. Neither is needed.

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY projections ./projections
RUN npm run build

FROM node:24-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
# Production dependencies from the lock file; optional ones stay in: @eventstore/db-client is how
# EVENT_STORE=eventstoredb talks to the server.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# Compiled JavaScript and the reference data `npm run build` copies beside it (migrations are found next
# to migrate.js, in dist/src/infra/migrations; rate tables and municipalities in dist/src/reference-data).
COPY --from=build /app/dist ./dist
# DATA_DIR (./data) must be writable by the unprivileged user; with DATABASE_URL set, as in
# docker-compose.yml, it holds nothing but is still the configured default.
RUN mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 3000
CMD ["node", "dist/src/main/start.js"]
