/**
 * Short-lived download links: the browser downloads a large file by navigation (streamed to
 * disk by the browser, never held in a page's memory), and a navigation carries no bearer
 * token. A link names the export and its user and expires; an HMAC signs it with a key kept in
 * the database (`export.link_key`, created by the first process that needs it), so that a link
 * stays valid across a restart and on every process of one database.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../kernel/mod.ts";

const encoder = new TextEncoder();

/** How long a link is valid. */
export const LINK_TTL_MS = 5 * 60_000;

function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Signs and checks download links. */
export class DownloadLinks {
  readonly #key: Promise<CryptoKey>;

  /** With a database: its persisted key; without: a key of this instance only. */
  constructor(db?: Db) {
    this.#key = db
      ? persistedSecret(db).then((secret) =>
        crypto.subtle.importKey(
          "raw",
          Uint8Array.from(atob(secret), (c) => c.charCodeAt(0)),
          { name: "HMAC", hash: "SHA-256" },
          false,
          ["sign"],
        )
      )
      : crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    // A failure is reported by the first link signed or checked, not as an unhandled rejection.
    this.#key.catch(() => undefined);
  }

  async #sign(payload: string): Promise<string> {
    return base64url(await crypto.subtle.sign("HMAC", await this.#key, encoder.encode(payload)));
  }

  /** The token of a link to `exportKey` for `userId`, valid until now + LINK_TTL_MS. */
  async token(exportKey: string, userId: string, now = Date.now()): Promise<string> {
    const expires = now + LINK_TTL_MS;
    return `${expires}.${userId}.${await this.#sign(`${exportKey}|${userId}|${expires}`)}`;
  }

  /** The user a valid token was issued to, or null (expired, forged, another export). */
  async check(exportKey: string, token: string, now = Date.now()): Promise<string | null> {
    const first = token.indexOf(".");
    const last = token.lastIndexOf(".");
    if (first < 0 || last <= first) return null;
    const expires = Number(token.slice(0, first));
    const userId = token.slice(first + 1, last);
    if (!Number.isFinite(expires) || expires < now) return null;
    const expected = await this.#sign(`${exportKey}|${userId}|${expires}`);
    return expected === token.slice(last + 1) ? userId : null;
  }
}

/** The key of the links, created once per database (32 random bytes, base64). */
async function persistedSecret(db: Db): Promise<string> {
  const fresh = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  await db.execute(
    sql`INSERT INTO export.link_key (id, secret) VALUES (1, ${fresh}) ON CONFLICT (id) DO NOTHING`,
  );
  const result = await db.execute(sql`SELECT secret FROM export.link_key WHERE id = 1`);
  return (result as unknown as { rows: { secret: string }[] }).rows[0]!.secret;
}
