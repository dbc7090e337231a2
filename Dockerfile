# One container: the Deno process with PGlite and DuckDB files in /data.
# Build: docker build -t gridwatch .   Run: docker run -p 8080:8080 -v gridwatch-data:/data gridwatch
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY . .
RUN npx vite build --config web/vite.config.ts && npm prune --omit=dev --no-audit --no-fund \
 && npm install --no-save --no-audit --no-fund deno@2.9.6

FROM node:22-bookworm-slim
WORKDIR /app
# A production image starts empty: no demo utility, no simulated cells (docker run -e DEMO_SEED=true
# for a demonstration).
ENV PORT=8080 DATA_DIR=/data NODE_ENV=production DEMO_SEED=false
# The runtime settings of scripts/runtime.env (docs/operations.md, "Memory").
ENV DENO_V8_FLAGS=--heap-growing-percent=50 MALLOC_ARENA_MAX=2
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:8080/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["npx", "--no-install", "deno", "run", "--allow-net", "--allow-read", "--allow-write", "--allow-env", "--allow-ffi", "--allow-sys", "main.ts"]
