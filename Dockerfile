# syntax=docker/dockerfile:1
# The wallet, yield and lending-intent service. Two stages: the first builds
# (TypeScript, the dashboard, the SDK), the second holds only production
# dependencies and the built files, and runs as the unprivileged `node` user.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# /shared: where compose.scale.yaml's chains container writes the sandbox manifest (a volume takes this owner).
RUN chown node:node /app && mkdir /shared && chown node:node /shared
COPY --chown=node:node package.json package-lock.json ./
# The test lane's MongoDB-compatible server is the one optional dependency: left out here.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force
COPY --chown=node:node --from=build /app/dist ./dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/src/main.js"]
