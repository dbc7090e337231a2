/**
 * The markdown of docs/contracts.md's generated block from an OpenAPI document: one table of
 * calls per URL prefix (call, access, input, answer) and the named types written as TypeScript.
 * Pure: takes the document, returns text.
 *
 * @module
 */

type Json = Record<string, unknown>;

const REF = "#/components/schemas/";
const WRAP = 72;

/** A JSON Schema as a TypeScript type, `indent` spaces deep when it spans several lines. */
export function tsType(schema: Json | undefined, indent = 0): string {
  if (!schema || Object.keys(schema).length === 0) return "unknown";
  if (typeof schema.$ref === "string") return schema.$ref.slice(REF.length);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (union) return [...new Set(union.map((s) => tsType(s, indent)))].join(" | ");
  const types = Array.isArray(schema.type) ? schema.type as string[] : [schema.type as string];
  return types.map((type) => single(type, schema, indent)).join(" | ");
}

function single(type: string, schema: Json, indent: number): string {
  switch (type) {
    case "integer":
    case "number":
      return "number";
    case "string":
      return schema.format === "binary" ? "binary" : "string";
    case "boolean":
    case "null":
      return type;
    case "array": {
      const item = tsType(schema.items as Json | undefined, indent);
      return /[ |]/.test(item) && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
    }
    case "object":
      return objectType(schema, indent);
    default:
      return "unknown";
  }
}

function objectType(schema: Json, indent: number): string {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const names = Object.keys(properties);
  if (!names.length) {
    const key = schema.propertyNames ? tsType(schema.propertyNames as Json) : "string";
    const value = schema.additionalProperties;
    return `Record<${key}, ${
      typeof value === "object" ? tsType(value as Json, indent) : "unknown"
    }>`;
  }
  const required = new Set((schema.required ?? []) as string[]);
  const fields = names.map((name) => {
    const key = /^[a-z_$][\w$]*$/i.test(name) ? name : JSON.stringify(name);
    return `${key}${required.has(name) ? "" : "?"}: ${tsType(properties[name], indent + 2)}`;
  });
  const inline = `{ ${fields.join("; ")} }`;
  if (inline.length + indent <= WRAP && !inline.includes("\n")) return inline;
  const pad = " ".repeat(indent + 2);
  return `{\n${fields.map((f) => `${pad}${f};`).join("\n")}\n${" ".repeat(indent)}}`;
}

/** Query parameters as `?name=type&...`, optional ones in brackets. */
function queryText(parameters: Json[]): string {
  const query = parameters.filter((p) => p.in === "query");
  if (!query.length) return "";
  return "?" + query.map((p) => {
    const text = `${p.name}=${tsType(p.schema as Json).replaceAll('"', "")}`;
    return p.required ? text : `[${text}]`;
  }).join("&");
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

function answerText(responses: Record<string, Json>): string {
  const [status, response] = Object.entries(responses).find(([s]) => s !== "default")!;
  const content = response!.content as Record<string, { schema: Json }> | undefined;
  if (!content) return status;
  const [type, { schema }] = Object.entries(content)[0]!;
  const body = type === "application/json" ? tsType(schema) : type;
  return `${status} \`${body}\``;
}

function inputText(operation: Json): string {
  const body = (operation.requestBody as Json | undefined)?.content as
    | Record<string, { schema: Json }>
    | undefined;
  return body ? `\`${tsType(body["application/json"]!.schema)}\`` : "";
}

function accessText(operation: Json): string {
  if (Array.isArray(operation.security) && operation.security.length === 0) return "public";
  return typeof operation["x-access"] === "string" ? `\`${operation["x-access"]}\`` : "signed in";
}

/** The generated block: call tables per prefix, then every named type. */
export function renderTables(document: Json): string {
  const paths = document.paths as Record<string, Record<string, Json>>;
  const byPrefix = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const prefix = `/${path.split("/")[1]}`;
      const parameters = (op.parameters ?? []) as Json[];
      const call = `\`${method.toUpperCase()} ${path}${queryText(parameters)}\``;
      const summary = typeof op.summary === "string" ? op.summary : "";
      const row = [call, accessText(op), inputText(op), answerText(op.responses as never), summary]
        .map(cell);
      const rows = byPrefix.get(prefix) ?? [];
      rows.push(`| ${row.join(" | ")} |`);
      byPrefix.set(prefix, rows);
    }
  }
  const tables = [...byPrefix.entries()].map(([prefix, rows]) =>
    [
      `### \`${prefix}\``,
      "",
      "| call | access | input | answer | what it does |",
      "| --- | --- | --- | --- | --- |",
      ...rows,
    ].join("\n")
  );
  const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
  const types = Object.entries(schemas).map(([name, schema]) =>
    `type ${name} = ${tsType(schema)};`
  );
  return [
    "## Calls (generated)",
    "",
    "Every call of the internal API, read from the routes: `access` is the module key the caller " +
    "must hold (`:admin` for its admin role; super-admins pass every admin check), `public` " +
    "calls need no token. Inputs and answers are the types below, generated from the modules' " +
    "`contract.ts`; the OpenAPI 3.1 document is `docs/openapi/internal.json`.",
    "",
    ...tables.flatMap((t) => [t, ""]),
    "### Types",
    "",
    "```ts",
    ...types,
    "```",
  ].join("\n");
}
