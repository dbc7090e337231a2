/**
 * Serves the built web app: hashed assets with long caching, everything else that looks like a
 * page gets index.html so client-side routes work on reload and when shared.
 */
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./http.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".pbf": "application/x-protobuf",
  ".webmanifest": "application/manifest+json",
};

/** Serves files of `distDir`; GET requests for unknown non-API paths fall back to index.html. */
export function serveWebApp(
  distDir: string,
  apiPrefixes: readonly string[],
): MiddlewareHandler<AppEnv> {
  const root = normalize(distDir);
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const path = decodeURIComponent(c.req.path);
    if (apiPrefixes.some((p) => path === p || path.startsWith(`${p}/`))) return next();
    const file = normalize(join(root, path));
    if (!file.startsWith(root)) return next();
    const found = await isFile(file);
    if (found) {
      const immutable = path.startsWith("/assets/");
      return c.body(await readFile(file), 200, {
        "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
        "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      });
    }
    // A missing asset or document file is a real 404, not the app shell.
    if (extname(path) !== "" && !path.endsWith(".html")) return next();
    const index = join(root, "index.html");
    if (!(await isFile(index))) {
      return c.text("The web app is not built: run `npm start`, which builds it.", 503);
    }
    return c.body(await readFile(index), 200, {
      "Content-Type": TYPES[".html"]!,
      "Cache-Control": "no-cache",
    });
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
