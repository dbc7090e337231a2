/** Start page resolution for `/` (spec 2.1). */
import { type AccessContext, denialReason } from "./access.ts";
import { type ModuleId, moduleOfPath, MODULES } from "./modules.ts";

/** True for a same-origin absolute path that is not `/` itself (which would loop). */
export function isUsableStartPage(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const path = value.trim();
  return path.startsWith("/") && !path.startsWith("//") && !path.includes("\\") &&
    path.replace(/[?#].*$/, "") !== "/";
}

/**
 * Where `/` goes when neither the user nor the configuration names a page that works: the
 * built screens in the order an operator most likely needs them; My Profile is open to all.
 */
export const FALLBACK_START_MODULES: readonly ModuleId[] = [
  "grid-monitoring",
  "metering-information",
  "visual-statistics",
  "io-monitoring",
  "infrastructure-setup",
  "user-management",
  "global-settings",
  "grid-monitoring-settings",
  "user-settings",
];

/**
 * True when `path` opens a screen for this user: a module that is built and that the access
 * guard lets in. Paths outside the registry are the user's own choice and are kept.
 */
export function startPageWorks(path: string, ctx: AccessContext): boolean {
  const module = moduleOfPath(path);
  if (!module) return true;
  return module.built && denialReason(module.access, ctx) === null;
}

/**
 * The page `/` redirects to: the user's stored start page, else the start_page claim of the
 * token, else the configured default start page. With `ctx`, a page that would not work (a
 * module not built yet, or one the user may not open) is skipped, and when none works the
 * first built screen the user may open is taken, so `/` never ends on a placeholder or 403.
 */
export function resolveStartPage(candidates: {
  stored?: string | null | undefined;
  claim?: unknown;
  fallback: string;
  ctx?: AccessContext;
}): string {
  const { ctx } = candidates;
  const works = (value: unknown): value is string =>
    isUsableStartPage(value) && (!ctx || startPageWorks(value.trim(), ctx));
  for (const value of [candidates.stored, candidates.claim, candidates.fallback]) {
    if (works(value)) return value.trim();
  }
  if (!ctx) return candidates.fallback;
  const first = FALLBACK_START_MODULES.map((id) => MODULES[id].path).find((path) =>
    startPageWorks(path, ctx)
  );
  return first ?? MODULES["user-settings"].path;
}
