/**
 * Cell credentials: `<cell id>.<secret>` with a 256-bit random secret. Only the SHA-256 of the
 * secret is stored; comparing hashes in constant time keeps timing from leaking prefixes.
 */

/** A new random secret, base64url (43 characters). */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/** Hex SHA-256 of a secret. */
export async function hashSecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Splits `<cell id>.<secret>`; null when malformed. */
export function parseCredential(credential: string): { cellId: string; secret: string } | null {
  const match = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{20,128})$/.exec(credential);
  return match ? { cellId: match[1]!, secret: match[2]! } : null;
}

/** Constant-time comparison of two strings (hashes, secrets); different lengths differ at once. */
export function sameHash(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
