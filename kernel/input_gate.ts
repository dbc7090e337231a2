/**
 * The one input gate in front of every route (issue 12): whatever a client sends is bounded and
 * checked before a module sees it, so that no input can reach PostgreSQL or a parser it breaks.
 *
 * - The header block is at most MAX_HEADER_BYTES (431 beyond). Blocks beyond about 64 KiB never
 *   reach the application: Deno's HTTP layer refuses them with a bare 400 (docs/operations.md).
 * - A path whose segments do not decode, or hold a control character (U+0000 included), is 404.
 * - A query value with a control character, a lone surrogate or bad percent-encoding is 400.
 * - A body is bounded per route (DEFAULT_BODY_BYTES unless a module declares more for its
 *   uploads): a declared Content-Length beyond the limit answers 413 before anything is read, a
 *   chunked body is counted while it streams.
 * - A JSON body must be valid UTF-8 and valid JSON, nested at most MAX_JSON_DEPTH deep, and hold
 *   no U+0000 nor lone surrogate in any string or key; it is then parsed once and handed to the
 *   route's validator. A form body (the login page) must be free of control characters too.
 *
 * Paths of `raw` rules (the cell protocol) get only their size limit: their modules parse the
 * bytes themselves and answer in their own protocol.
 */
import type { MiddlewareHandler } from "hono";
import { AppError, validationError } from "./errors.ts";
import type { FieldIssue } from "./contract.ts";
import type { AppEnv } from "./http.ts";

/** Bodies of routes that declare nothing: JSON forms and commands. */
export const DEFAULT_BODY_BYTES = 256 * 1024;
/** Request line excluded: header names and values, as Deno hands them over. */
export const MAX_HEADER_BYTES = 32 * 1024;
/** Objects and arrays inside each other; real bodies of the product nest less than 8 deep. */
export const MAX_JSON_DEPTH = 32;

/** A body limit a module declares for some of its paths (uploads, the cell protocol). */
export interface BodyLimit {
  /** Matched against the request path (`/gsm/map-layers`). */
  path: RegExp;
  bytes: number;
  /** The module reads the bytes itself: no JSON or form checks by the gate. */
  raw?: boolean;
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// deno-lint-ignore no-control-regex
const NUL = /\u0000/;

/** The gate; `limits` are the modules' own, checked in order before the default. */
export function inputGate(limits: readonly BodyLimit[] = []): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const req = c.req.raw;
    let headerBytes = 0;
    req.headers.forEach((value, name) => headerBytes += name.length + value.length + 4);
    if (headerBytes > MAX_HEADER_BYTES) throw new AppError("common.headersTooLarge");

    const url = new URL(req.url);
    if (!pathIsClean(url.pathname)) throw new AppError("common.notFound");
    const queryIssues = encodedIssuesOf(url.search.slice(1), CONTROL);
    if (queryIssues.length) throw validationError(queryIssues);

    const rule = limits.find((limit) => limit.path.test(url.pathname));
    const limit = rule?.bytes ?? DEFAULT_BODY_BYTES;
    if (req.body === null || req.method === "GET" || req.method === "HEAD") return await next();
    const declared = req.headers.get("content-length");
    if (declared !== null && !req.headers.has("transfer-encoding")) {
      if (!/^\d{1,15}$/.test(declared)) throw new AppError("common.badRequest");
      if (Number(declared) > limit) throw tooLarge(req);
    }
    if (rule?.raw) return await next();

    const type = (req.headers.get("content-type") ?? "").toLowerCase();
    const json = /^application\/([\w.-]+\+)?json\s*(;|$)/.test(type);
    const form = type.startsWith("application/x-www-form-urlencoded");
    // Uploads (a module's own limit) are read by their module, which counts while reading.
    if (!json && !form && (declared !== null || rule)) return await next();
    const bytes = await readLimited(req, limit);
    // A body read here is handed on as bytes: handlers and proxies read it as before. Not
    // `new Request(req, ...)`: that copies the server's abort signal, whose legacy behaviour
    // Deno 2.9.6 warns about on every start (nothing here listens to it).
    c.req.raw = new Request(req.url, { method: req.method, headers: req.headers, body: bytes });
    if (json) {
      const parsed = parseJson(bytes);
      (c.req.bodyCache as { json?: Promise<unknown> }).json = Promise.resolve(parsed);
    } else if (form) {
      const issues = formIssuesOf(bytes);
      if (issues.length) throw validationError(issues);
    }
    await next();
  };
}

function tooLarge(req: Request): AppError {
  // The rest of a refused body is not read; the connection cannot be reused for another request.
  req.body?.cancel().catch(() => undefined);
  return new AppError("common.payloadTooLarge");
}

/**
 * Reads a body of at most `limit` bytes: a larger Content-Length is refused before reading, a
 * body that grows past the limit is cancelled as soon as it does. `tooLarge` names the error.
 */
export async function readLimited(
  req: Request,
  limit: number,
  tooLarge: () => AppError = () => new AppError("common.payloadTooLarge"),
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = req.headers.get("content-length");
  if (declared !== null && !req.headers.has("transfer-encoding")) {
    if (!/^\d{1,15}$/.test(declared)) throw new AppError("common.badRequest");
    if (Number(declared) > limit) throw tooLarge();
    // HTTP/1.1 framing holds the body to its declared length: read in one piece.
    return new Uint8Array(await req.arrayBuffer());
  }
  const reader = req.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function pathIsClean(pathname: string): boolean {
  for (const segment of pathname.split("/")) {
    const text = decodeOrNull(segment);
    if (text === null || CONTROL.test(text) || !text.isWellFormed()) return false;
  }
  return true;
}

function decodeOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Field errors of `name=value&...` text whose parts do not decode or hold a `refused` character. */
function encodedIssuesOf(encoded: string, refused: RegExp): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const pair of encoded.split("&")) {
    if (!pair) continue;
    const equals = pair.indexOf("=");
    const name = decodeOrNull((equals === -1 ? pair : pair.slice(0, equals)).replaceAll("+", " "));
    const value = equals === -1 ? "" : decodeOrNull(pair.slice(equals + 1).replaceAll("+", " "));
    const broken = name === null || value === null || !name.isWellFormed() ||
      !value.isWellFormed() || refused.test(name) || refused.test(value);
    if (broken) issues.push({ path: name ?? "", key: "validation.invalidCharacters", params: {} });
  }
  return issues;
}

/** A form may carry line breaks (a textarea); only NUL and broken text are refused in it. */
function formIssuesOf(bytes: Uint8Array): FieldIssue[] {
  const text = decodeUtf8(bytes);
  if (text === null) return [{ path: "", key: "validation.invalidCharacters", params: {} }];
  return encodedIssuesOf(text, NUL);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** Parses a JSON body, refusing broken text, NUL, lone surrogates and deep nesting (400). */
export function parseJson(bytes: Uint8Array): unknown {
  const text = decodeUtf8(bytes);
  if (text === null) {
    throw validationError([{ path: "", key: "validation.invalidCharacters", params: {} }]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw validationError([{ path: "", key: "validation.malformedJson", params: {} }]);
  }
  const issue = inspect(value, "", 0);
  if (issue) throw validationError([issue]);
  return value;
}

/** The first string, key or depth of a parsed JSON value that the product refuses. */
function inspect(value: unknown, path: string, depth: number): FieldIssue | null {
  if (typeof value === "string") {
    return NUL.test(value) || !value.isWellFormed()
      ? { path, key: "validation.invalidCharacters", params: {} }
      : null;
  }
  if (value === null || typeof value !== "object") return null;
  if (depth >= MAX_JSON_DEPTH) {
    return { path, key: "validation.tooDeep", params: { max: MAX_JSON_DEPTH } };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const issue = inspect(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (issue) return issue;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (NUL.test(key) || !key.isWellFormed()) {
      return { path, key: "validation.invalidCharacters", params: {} };
    }
    const issue = inspect(item, at, depth + 1);
    if (issue) return issue;
  }
  return null;
}
