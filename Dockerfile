# Quanta as one container: `docker build -t quanta .` then
# `docker run -p 3000:3000 -v quanta-data:/data quanta`. See README.md, "Deployment".

FROM node:20-bookworm-slim AS build
WORKDIR /app
# The pre-commit hook has no repository to go into here.
ENV NEXT_TELEMETRY_DISABLED=1 SKIP_INSTALL_SIMPLE_GIT_HOOKS=1
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# The standalone server carries the node_modules, migrations and PGlite files it needs; the
# static assets and public/ are served by it but not copied into it by the build.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    QUANTA_DATA_DIR=/data
COPY --from=build --chown=node:node /app/.next/standalone ./
COPY --from=build --chown=node:node /app/.next/static ./.next/static
COPY --from=build --chown=node:node /app/public ./public
# The embedded database and the generated secret, unless DATABASE_URL and QUANTA_SECRET are set.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
CMD ["node", "server.js"]
