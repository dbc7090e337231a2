/**
 * Client ids and secrets. A secret is 256 random bits, so one SHA-256 is enough to keep it
 * (unlike a password it cannot be guessed from a dictionary; a slow hash would only slow every
 * token request). Comparison is constant-time.
 */
import { timingSafeEqual } from "node:crypto";

function randomBase64Url(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replaceAll("+", "-").replaceAll("/", "_").replace(
    /=+$/,
    "",
  );
}

/** A new public client id: `gwc_` and 20 hex digits. */
export function newClientId(): string {
  const raw = crypto.getRandomValues(new Uint8Array(10));
  return `gwc_${[...raw].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A new secret: `gws_` and 43 base64url characters (256 bits). */
export function newSecret(): string {
  return `gws_${randomBase64Url(32)}`;
}

/** The stored form of a secret: its SHA-256 in hex. */
export async function hashSecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether `secret` matches the stored hash (constant-time over the hash). */
export async function secretMatches(secret: string, storedHash: string): Promise<boolean> {
  if (secret.length > 200) return false;
  const actual = new TextEncoder().encode(await hashSecret(secret));
  const expected = new TextEncoder().encode(storedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
