# One image for every Travelog role (ROLE=api|projector|webhooks|all). Node 24 LTS is the
# production runtime; the code also runs on Node 20.19+, the development machines' version.
FROM node:24-slim

WORKDIR /app
ENV NODE_ENV=production

# Dependencies first, from the lock file, so a source change does not reinstall them. Dev
# dependencies are left out (`npm start` runs the TypeScript sources through tsx, a runtime
# dependency); optional ones stay in: @eventstore/db-client is how EVENT_STORE=eventstoredb talks
# to the server.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY . .
# DATA_DIR (./data) must be writable by the unprivileged user; with DATABASE_URL set, as in
# docker-compose.yml, it holds nothing but is still the configured default.
RUN mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 3000
CMD ["npm", "start"]
