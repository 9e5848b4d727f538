# The service with its production settings; docker-compose.yml supplies EventStoreDB,
# Kafka and PostgreSQL. TypeScript runs through tsx; the one build step is the client's
# form page (Vite), done here as root because the service runs as `node` and cannot write
# into /app, so the start skips npm's prestart build.
FROM node:20-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production

COPY package.json package-lock.json ./
# Dev dependencies (test tools, testcontainers) stay out of the image; tsx is a dependency.
RUN npm ci --omit=dev && npm cache clean --force

COPY . .
RUN npm run build:web

USER node
EXPOSE 3000
ENV HOST=0.0.0.0 PORT=3000

HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["npm", "start", "--ignore-scripts"]
