/** The URL to come back to after the identity provider login. */

/** Path of the OIDC redirect URI. */
export const CALLBACK_PATH = "/auth/callback";

/**
 * Reads `returnTo` from the sign-in state; only same-origin paths are kept, and never the
 * callback itself, so a forged state cannot send the user elsewhere.
 */
export function returnPathFromState(state: unknown): string {
  const returnTo = typeof state === "object" && state !== null
    ? (state as { returnTo?: unknown }).returnTo
    : undefined;
  if (typeof returnTo !== "string") return "/";
  if (!returnTo.startsWith("/") || returnTo.startsWith("//") || returnTo.includes("\\")) return "/";
  if (returnTo === CALLBACK_PATH || returnTo.startsWith(`${CALLBACK_PATH}?`)) return "/";
  return returnTo;
}
