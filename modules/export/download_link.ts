/**
 * Short-lived download links: the browser downloads a large file by navigation (streamed to
 * disk by the browser, never held in a page's memory), and a navigation carries no bearer
 * token. A link names the export and its user and expires; an HMAC with a per-process key
 * signs it (a restart invalidates the links, the page asks for a new one).
 */
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

  constructor() {
    this.#key = crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
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
