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
  /** A JSON body to start a try-out from, built from the request body's schema. */
  bodyExample: string;
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
        bodyExample: JSON.stringify(exampleOf(requestSchema(op), doc as Json), null, 2),
      });
    }
  }
  return out;
}

function requestSchema(op: Json): unknown {
  const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
  return content["application/json"]?.schema;
}

/**
 * An example value of a JSON schema: its `example`, `default` or first enum value, else a value
 * of its type (objects with their required properties, all of them when none is required).
 * References within the document are followed, at most 8 levels deep.
 */
export function exampleOf(schema: unknown, doc: Json, depth = 0): unknown {
  const s = (schema ?? {}) as Json;
  if (typeof s.$ref === "string" && depth < 8) {
    const target = s.$ref.replace(/^#\//, "").split("/").reduce<unknown>(
      (node, key) => (node as Json | undefined)?.[key],
      doc,
    );
    return exampleOf(target, doc, depth + 1);
  }
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const variants = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (variants?.length) {
    const first = variants.find((v) => (v as Json).type !== "null") ?? variants[0];
    return exampleOf(first, doc, depth + 1);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = (s.required as string[] | undefined) ?? [];
      const keys = required.length ? required : Object.keys(properties);
      return Object.fromEntries(keys.map((k) => [k, exampleOf(properties[k], doc, depth + 1)]));
    }
    case "array": {
      const min = typeof s.minItems === "number" ? s.minItems : 0;
      return min > 0 ? [exampleOf(s.items, doc, depth + 1)] : [];
    }
    case "string":
      return s.format === "date-time" ? new Date(0).toISOString() : "";
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 0;
    case "boolean":
      return false;
    default:
      return s.properties ? exampleOf({ ...s, type: "object" }, doc, depth + 1) : {};
  }
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
