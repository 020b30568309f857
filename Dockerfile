# syntax=docker/dockerfile:1
# creator-commerce-mock as a CI sidecar: docker run -p 4010:4010 <image>
#
# The runtime stage holds exactly what `npm pack` ships plus production dependencies pinned by the
# lock file: the same thing test/package/tarball.test.ts installs and starts on machines without Docker.

FROM node:20-alpine AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json README.md ./
COPY src ./src
COPY fixtures ./fixtures
COPY scenarios ./scenarios
# prepack builds dist/; the tarball is the published package.
RUN npm pack --silent && mkdir /pkg && tar -xzf creator-commerce-mock-*.tgz -C /pkg --strip-components=1 \
  && cp package-lock.json /pkg/ \
  && cd /pkg && npm ci --omit=dev --ignore-scripts --no-audit --no-fund && rm package-lock.json

FROM node:20-alpine
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010
WORKDIR /app
COPY --from=build --chown=node:node /pkg /app
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/__admin/health',{headers:{'x-admin-token':process.env.MOCK_ADMIN_TOKEN||''}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node is PID 1 and handles SIGTERM/SIGINT itself: in-flight requests finish, exit 0 within 2 s.
ENTRYPOINT ["node", "dist/cli.js"]
