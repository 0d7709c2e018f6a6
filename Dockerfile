# Production image: `npm start` (web + worker) against DATABASE_URL.
# Run several containers with `npm run web` / `npm run worker` to scale out (see README).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

FROM deps AS build
COPY . .
# the Remix build, the SDK's tarball (public/sdk) and its reference (public/sdk-reference)
RUN npm run build

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY server.ts tsconfig.json ./
COPY app ./app
COPY db ./db
COPY jobs ./jobs
COPY storefront ./storefront
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["npm", "start"]
