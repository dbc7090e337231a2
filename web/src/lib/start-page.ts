/** Start page resolution for `/` (spec 2.1). */

/** True for a same-origin absolute path that is not `/` itself (which would loop). */
export function isUsableStartPage(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const path = value.trim();
  return path.startsWith("/") && !path.startsWith("//") && !path.includes("\\") &&
    path.replace(/[?#].*$/, "") !== "/";
}

/**
 * The page `/` redirects to: the user's stored start page, else the start_page claim of the
 * token, else the configured default start page.
 */
export function resolveStartPage(candidates: {
  stored?: string | null | undefined;
  claim?: unknown;
  fallback: string;
}): string {
  if (isUsableStartPage(candidates.stored)) return candidates.stored.trim();
  if (isUsableStartPage(candidates.claim)) return candidates.claim.trim();
  return candidates.fallback;
}
