/**
 * The REST client: bearer token, the customer worked on, `{ code, key, params }` error bodies
 * and the error pages of spec 7 (no response or 500 -> /500?type=api, 403 -> /403?type=api,
 * 404 -> /404?type=api).
 */

import { CUSTOMER_HEADER } from "../../../kernel/contract.ts";
import { errorPageFor, parseErrorBody } from "./api-errors.ts";

/** The header naming the customer a super role acts on (kernel/tenant.ts on the server). */
export { CUSTOMER_HEADER };
import type { ErrorBody as ApiErrorBody } from "../../../kernel/contract.ts";

/** A failed call; `status` is `null` when no response arrived. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number | null,
    readonly body: ApiErrorBody | null,
    options?: { cause?: unknown },
  ) {
    super(
      status === null
        ? "Request failed: no response"
        : `Request failed: HTTP ${status}${body?.key ? ` ${body.key}` : ""}`,
      options,
    );
  }
}

/** What the client needs from the application around it. */
export interface ApiEnvironment {
  baseUrl: string;
  getAccessToken(): string | null;
  /**
   * The customer the user works on (picked in the user menu by a super role), sent as
   * `X-Customer` on every call; the server binds everyone else to their token's customer.
   */
  getCustomerKey(): string | null;
  /** Shows an error page, e.g. `/500?type=api`. */
  showErrorPage(href: string): void;
  /** The token was refused: the session is over. */
  onUnauthorized(): void;
}

let environment: ApiEnvironment = {
  baseUrl: "",
  getAccessToken: () => null,
  getCustomerKey: () => null,
  showErrorPage: (href) => window.location.assign(href),
  onUnauthorized: () => {},
};

/** Wires the client to the session and the router. */
export function configureApi(next: Partial<ApiEnvironment>): void {
  environment = { ...environment, ...next };
}

/** Options of one call. */
export interface ApiRequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** The screen shows errors itself: no navigation to the error pages. */
  handleErrors?: boolean;
}

function urlFor(path: string, query: ApiRequestOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return `${environment.baseUrl}${path}${search ? `?${search}` : ""}`;
}

const ERROR_ORIGIN_KEY = "gw.errorOrigin";

/** Where the user was when a call sent them to an error page; Reload returns there. */
export function errorOrigin(): string | null {
  try {
    return window.sessionStorage.getItem(ERROR_ORIGIN_KEY);
  } catch {
    return null;
  }
}

function rememberErrorOrigin(): void {
  const { pathname, search, hash } = window.location;
  if (/^\/(403|404|500|503)\/?$/.test(pathname)) return;
  try {
    window.sessionStorage.setItem(ERROR_ORIGIN_KEY, `${pathname}${search}${hash}`);
  } catch {
    // Without storage, Reload reloads the error page itself.
  }
}

function fail(status: number | null, body: ApiErrorBody | null, handleErrors: boolean): never {
  if (status === 401) environment.onUnauthorized();
  const page = errorPageFor(status);
  if (page && !handleErrors) {
    rememberErrorOrigin();
    environment.showErrorPage(`${page}?type=api`);
  }
  throw new ApiError(status, body);
}

/** Files and forms go out as they are (the browser sets their content type); the rest as JSON. */
function isRawBody(body: unknown): body is Blob | FormData {
  return body instanceof Blob || body instanceof FormData;
}

/** The headers every call carries: the bearer token and the customer worked on. */
function sessionHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = environment.getAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const customer = environment.getCustomerKey();
  if (customer) headers[CUSTOMER_HEADER] = customer;
  return headers;
}

/** Performs one call and returns the parsed JSON body (`undefined` for an empty body). */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...sessionHeaders() };
  const raw = isRawBody(options.body);
  if (options.body !== undefined && !raw) headers["Content-Type"] = "application/json";
  const handleErrors = options.handleErrors ?? false;
  let response: Response;
  try {
    response = await fetch(urlFor(path, options.query), {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined
        ? null
        : raw
        ? options.body as Blob | FormData
        : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return fail(null, null, handleErrors);
  }
  const text = await response.text().catch(() => "");
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) return fail(response.status, parseErrorBody(json), handleErrors);
  return json as T;
}

/**
 * Fetches a binary resource (an image) with the bearer token; `null` when it is missing or the
 * call fails. Never leads to an error page: a missing picture is not worth leaving the screen.
 */
export async function apiBlob(path: string, signal?: AbortSignal): Promise<Blob | null> {
  try {
    const response = await fetch(urlFor(path, undefined), {
      headers: sessionHeaders(),
      signal: signal ?? null,
    });
    return response.ok ? await response.blob() : null;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return null;
  }
}

/** Shorthands for the HTTP methods. */
export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "GET" }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "POST", body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "PUT", body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "PATCH", body }),
  delete: <T>(path: string, options?: Omit<ApiRequestOptions, "method" | "body">) =>
    apiRequest<T>(path, { ...options, method: "DELETE" }),
};

/** The current access token, for clients other than fetch (the notification websocket). */
export function currentAccessToken(): string | null {
  return environment.getAccessToken();
}

/** The absolute WebSocket URL of an API path (ws: or wss: like the page). */
export function webSocketUrl(path: string): string {
  const url = new URL(`${environment.baseUrl}${path}`, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

/**
 * For clients that make their own requests (maplibre's tiles): the absolute URL of an API path,
 * braces kept as they are (URL templates), and whether a URL is one of the API's.
 */
export function absoluteApiUrl(path: string): string {
  const base = environment.baseUrl || "";
  return /^https?:/.test(base) ? `${base}${path}` : `${window.location.origin}${base}${path}`;
}

/** The headers an API call carries (bearer token, customer), for such clients. */
export function apiHeaders(): Record<string, string> {
  return sessionHeaders();
}
