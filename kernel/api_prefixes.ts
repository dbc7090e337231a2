/**
 * The path prefixes the server answers itself (never the web app's index.html). main.ts mounts
 * modules only under these, the static file server skips them, and the Vite dev server proxies
 * them to the platform. Pure: imported by web/vite.config.ts.
 */
export const API_PREFIXES = [
  "/csm",
  "/usm",
  "/nsm",
  "/gsm",
  "/evm",
  "/vsm",
  "/pqm",
  "/pqe",
  "/iom",
  "/dem",
  "/acm",
  "/scm",
  "/external",
  "/ingest",
  "/api",
  "/oidc",
  "/health",
  "/config.json",
] as const;

/** One of the server's path prefixes. */
export type ApiPrefix = (typeof API_PREFIXES)[number];

/** Whether a request path belongs to the server (a prefix itself or below it). */
export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
