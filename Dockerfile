# syntax=docker/dockerfile:1
# creator-commerce-mock as a CI sidecar: docker run -p 4010:4010 <image>
#
# The runtime stage holds exactly what `npm pack` ships plus production dependencies pinned by the
# lock file. test/package/tarball.test.ts replays the build stage from this file on machines without
# Docker (its COPY lines into an empty folder, then its RUN commands) and starts what the runtime
# stage copies: every file the build needs must be COPY'd below, or `npm test` fails.
#
# Node 24: the active LTS line, maintained until 2028-04-30 (Node 20 reached end of life on
# 2026-04-30; 22 ends on 2027-04-30). The package itself still supports Node >= 20.19 (`engines`).
# Alpine keeps the image small and has busybox `wget` for a service container's --health-cmd.

FROM node:24-alpine AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` (the build) runs at `npm pack` below, once the sources are copied.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json README.md ./
# The docs the README links to ship in the package (package.json `files`: docs/*.md).
COPY docs ./docs
COPY src ./src
COPY fixtures ./fixtures
COPY scenarios ./scenarios
# build-dist.mjs (run by `npm run build`) copies the fixture validator and bundles the CLI.
COPY scripts ./scripts
# npm pack runs `prepare`, which builds dist/; the tarball is the published package.
RUN npm pack --silent && mkdir /pkg && tar -xzf creator-commerce-mock-*.tgz -C /pkg --strip-components=1 \
  && cp package-lock.json /pkg/ \
  && cd /pkg && npm ci --omit=dev --ignore-scripts --no-audit --no-fund && rm package-lock.json

FROM node:24-alpine
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010
WORKDIR /app
COPY --from=build --chown=node:node /pkg /app
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/__admin/health',{headers:{'x-admin-token':process.env.MOCK_ADMIN_TOKEN||''}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node is PID 1 and handles SIGTERM/SIGINT itself: in-flight requests finish, exit 0 within 2 s.
ENTRYPOINT ["node", "dist/cli.js"]
