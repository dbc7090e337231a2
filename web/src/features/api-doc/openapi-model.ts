/**
 * The part of an OpenAPI 3.1 document the /api-doc page reads: operations grouped by API (tag),
 * their parameters, scope and success answer; and how a try-out call's URL is built. Pure.
 */

type Json = Record<string, unknown>;

/** One parameter of an operation. */
export interface DocParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description: string;
}

/** One operation, as the page lists it. */
export interface DocOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  scopes: string[];
  parameters: DocParameter[];
  successStatus: string;
  hasBody: boolean;
}

/** The APIs of external_v1 in the spec's order (spec 7: gsm, dm, pq, fm). */
export const DOC_APIS = ["gsm", "dm", "pq", "fm"] as const;

/** The document's operations by API; APIs without operations have an empty list. */
export function operationsByApi(doc: unknown): Record<string, DocOperation[]> {
  const out: Record<string, DocOperation[]> = Object.fromEntries(DOC_APIS.map((a) => [a, []]));
  const paths = ((doc as Json | null)?.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const api = ((op.tags as string[] | undefined) ?? [])[0] ?? "";
      const security = (op.security as Record<string, string[]>[] | undefined) ?? [];
      const responses = (op.responses ?? {}) as Record<string, unknown>;
      (out[api] ??= []).push({
        id: `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        summary: typeof op.summary === "string" ? op.summary : "",
        scopes: security.flatMap((s) => Object.values(s).flat()),
        parameters: ((op.parameters ?? []) as Json[]).map((p) => ({
          name: String(p.name),
          in: p.in === "path" ? "path" : "query",
          required: Boolean(p.required),
          description: typeof p.description === "string" ? p.description : "",
        })),
        successStatus: Object.keys(responses).find((s) => s !== "default") ?? "200",
        hasBody: op.requestBody !== undefined,
      });
    }
  }
  return out;
}

/** The URL of a try-out call: path parameters filled in, empty query values left out. */
export function tryOutUrl(
  serverUrl: string,
  op: Pick<DocOperation, "path" | "parameters">,
  values: Record<string, string>,
): string {
  let path = op.path.replace(/^\/external\/v1/, "");
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    const value = (values[p.name] ?? "").trim();
    if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (value) query.set(p.name, value);
  }
  const search = query.toString();
  return `${serverUrl.replace(/\/$/, "")}${path}${search ? `?${search}` : ""}`;
}

/** The server URL of the document, made relative to the page's origin when it is the same. */
export function serverPath(doc: unknown, origin: string): string {
  const url = (((doc as Json | null)?.servers ?? []) as Json[])[0]?.url;
  if (typeof url !== "string") return "/external/v1";
  try {
    const parsed = new URL(url, origin);
    return parsed.pathname;
  } catch {
    return "/external/v1";
  }
}
