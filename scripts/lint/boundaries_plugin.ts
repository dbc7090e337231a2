/**
 * Deno lint plugin "gridwatch": the layout rules of docs and the style guide, checked on every
 * `deno lint` run.
 *
 * - `module-boundaries`: a module reaches another module only through its `mod.ts` (a module's
 *   `contract.ts` may also import another module's `contract.ts`: both are pure); the shared
 *   kernel (`kernel/`) imports no module and not core/; core/ imports only `kernel/mod.ts`;
 *   main.ts imports only `kernel/mod.ts`, `modules/<name>/mod.ts`, `core/mod.ts` and root files
 *   such as package.json.
 * - `web-boundaries`: `web/src/features/<a>` never imports `features/<b>`; `ui/` and `lib/`
 *   import no feature; outside web/, the web app imports only the modules' `contract.ts`, the
 *   kernel's `contract.ts` and the pure rule files the forms use as they are.
 * - `no-literal-ui-text`: user-visible JSX text comes from the i18n files.
 * - `max-file-lines`: a warning (printed, never failing the run) for a source file over 400
 *   lines; the aim is about 300.
 *
 * The helpers work on repository-relative POSIX paths so they stay pure and testable.
 *
 * @module
 */

import { posix } from "node:path";

/** A file name split into the repository root and the path inside it. */
export interface RepoPath {
  root: string;
  path: string;
}

const ROOT_MARKERS = ["/modules/", "/kernel/", "/core/", "/web/src/", "/main.ts"];

/**
 * Splits an absolute file name at the leftmost layout marker (`/modules/`, `/kernel/`, `/core/`,
 * `/web/src/`, `/main.ts`). Leftmost, so a folder named `core` inside a module does not move
 * the root. Returns `null` for files outside the layout.
 */
export function splitRepoPath(filename: string): RepoPath | null {
  const file = filename.replaceAll("\\", "/");
  let cut = -1;
  for (const marker of ROOT_MARKERS) {
    const at = file.indexOf(marker);
    const whole = marker !== "/main.ts" || at + marker.length === file.length;
    if (at >= 0 && whole && (cut < 0 || at < cut)) cut = at;
  }
  return cut < 0 ? null : { root: file.slice(0, cut), path: file.slice(cut + 1) };
}

/**
 * Resolves an import specifier of `from` (repository-relative) to a repository-relative path.
 * Bare, `npm:`, `node:` and URL specifiers and paths leaving the repository give `null`.
 * In web/src, the Vite alias `@/` means `web/src/`.
 */
export function resolveImport(from: string, specifier: string): string | null {
  if (from.startsWith("web/src/") && specifier.startsWith("@/")) {
    return posix.normalize(`web/src/${specifier.slice(2)}`);
  }
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return null;
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  return target.startsWith("../") ? null : target;
}

/** Whether a path names a test file (`*_test.ts`, `*.test.tsx`, `*.spec.ts`, ...). */
export function isTestFile(path: string): boolean {
  return /(?:_test|\.test|\.spec)\.[cm]?[jt]sx?$/.test(path);
}

/** The server unit that owns a path: `modules/<name>`, `kernel`, `core`, `main.ts`, or `null`. */
export function serverOwner(path: string): string | null {
  const module = /^modules\/([^/]+)\//.exec(path);
  if (module) return `modules/${module[1]}`;
  if (path.startsWith("kernel/")) return "kernel";
  if (path.startsWith("core/")) return "core";
  return path === "main.ts" ? "main.ts" : null;
}

function allowedImports(owner: string): string {
  if (owner === "main.ts") {
    return "main.ts may import only kernel/mod.ts, modules/<name>/mod.ts, core/mod.ts and root files";
  }
  if (owner === "core") return "core may import only its own files and kernel/mod.ts";
  return "a module may import only its own files, modules/<name>/mod.ts, core/mod.ts, " +
    "npm and node: specifiers";
}

/**
 * The `module-boundaries` verdict for an import of `to` from `from` (both repository-relative):
 * an error message, or `null` when the import is allowed.
 */
export function checkServerImport(from: string, to: string): string | null {
  const source = serverOwner(from);
  if (source === null) return null;
  const target = serverOwner(to);
  if (target === source) return null;
  const head = `Import of ${to} from ${source}`;
  if (target === null || target === "main.ts") {
    // Tests beside the code may share fixtures kept under tests/.
    if (isTestFile(from) && to.startsWith("tests/")) return null;
    // The composition root may read root files such as package.json (the version it serves).
    if (source === "main.ts" && !to.includes("/")) return null;
    return `${head}: ${allowedImports(source)}`;
  }
  if (source === "kernel") return `${head}: the shared kernel imports no module and not core/`;
  if (source === "core" && target !== "kernel") {
    return `${head}: core may import only kernel/mod.ts`;
  }
  const facade = `${target}/mod.ts`;
  if (to === facade || isContractImport(from, to)) return null;
  return `${head}: import from the public export ${facade} instead`;
}

/** Whether a path is a module's contract (`modules/<name>/contract.ts`). */
export function isModuleContract(path: string): boolean {
  return /^modules\/[^/]+\/contract\.ts$/.test(path);
}

/**
 * A contract importing another module's contract (the monitoring contract names the grid's
 * voltage levels): allowed, both are pure and shared with the web app.
 */
export function isContractImport(from: string, to: string): boolean {
  return isModuleContract(from) && isModuleContract(to);
}

/**
 * The server files the web app may import: the pure rule files the forms use as they are (next
 * to every `modules/<name>/contract.ts`, the rooms' `modules/<name>/<room>/contract.ts` it
 * re-exports, and `kernel/contract.ts`).
 */
export const WEB_RULE_FILES: readonly string[] = [
  "modules/users/password_policy.ts",
  "modules/customers/settings_rules.ts",
  "modules/customers/countries.ts",
  "modules/grid/structure/validation.ts",
  "modules/grid/cells/onboarding_rules.ts",
  "modules/export/export_rules.ts",
];

/** A room's part of its module's contract (`modules/grid/cells/contract.ts`). */
export function isRoomContract(path: string): boolean {
  return /^modules\/[^/]+\/[^/]+\/contract\.ts$/.test(path);
}

/** Whether web/src may import this repository file from outside web/. */
export function isWebImportable(path: string): boolean {
  return isModuleContract(path) || isRoomContract(path) || path === "kernel/contract.ts" ||
    WEB_RULE_FILES.includes(path);
}

function featureOf(path: string): string | null {
  return /^web\/src\/features\/([^/]+)\//.exec(path)?.[1] ?? null;
}

/**
 * The `web-boundaries` verdict for an import of `to` from `from` (both repository-relative):
 * an error message, or `null` when the import is allowed.
 */
export function checkWebImport(from: string, to: string): string | null {
  if (!to.startsWith("web/") && !isWebImportable(to) && !isTestFile(from)) {
    return `Import of ${to} from web/src: the web app imports only modules/<name>/contract.ts, ` +
      "kernel/contract.ts and the pure rule files";
  }
  const target = featureOf(to);
  if (target === null) return null;
  const source = featureOf(from);
  if (source !== null && source !== target) {
    return `Import of ${to} from web/src/features/${source}: ` +
      "a feature never imports another feature";
  }
  for (const layer of ["ui", "lib"]) {
    if (from.startsWith(`web/src/${layer}/`)) {
      return `Import of ${to} from web/src/${layer}: ${layer}/ imports no feature`;
    }
  }
  return null;
}

/** Whether JSX text or an attribute value would show words to a user (it contains a letter). */
export function isUserVisibleText(text: string): boolean {
  return /\p{L}/u.test(text);
}

/** The `no-literal-ui-text` message for a piece of text. */
export function literalTextMessage(text: string): string {
  return `User-visible text "${text.trim().replace(/\s+/g, " ")}" must come from the i18n files`;
}

/** Lines above which a source file gets a warning, and the size to aim for. */
export const FILE_LINES = { warn: 400, aim: 300 } as const;

/** The `max-file-lines` warning for a file, or `null` (tests and short files). */
export function fileLengthWarning(path: string, text: string): string | null {
  if (isTestFile(path)) return null;
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines <= FILE_LINES.warn) return null;
  return `warning[gridwatch/max-file-lines]: ${path} has ${lines} lines ` +
    `(over ${FILE_LINES.warn}; aim for about ${FILE_LINES.aim}: split it by sub-area)`;
}

type ImportCheck = (from: string, to: string) => string | null;

function literalValue(node: Deno.lint.Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) {
    return node.quasis.map((quasi) => quasi.cooked).join("");
  }
  return null;
}

/** A visitor that reports every static import, re-export and `import("...")` that `check` rejects. */
function importVisitor(ctx: Deno.lint.RuleContext, check: ImportCheck): Deno.lint.LintVisitor {
  const file = splitRepoPath(ctx.filename);
  const visit = (source: Deno.lint.Node | null | undefined) => {
    const specifier = literalValue(source);
    if (file === null || source == null || specifier === null) return;
    const target = resolveImport(file.path, specifier);
    const message = target === null ? null : check(file.path, target);
    if (message !== null) ctx.report({ node: source, message });
  };
  return {
    ImportDeclaration: (node) => visit(node.source),
    ExportNamedDeclaration: (node) => visit(node.source),
    ExportAllDeclaration: (node) => visit(node.source),
    ImportExpression: (node) => visit(node.source),
    TSImportType: (node) => {
      if (node.argument.type === "TSLiteralType") visit(node.argument.literal);
    },
  };
}

const TEXT_ATTRIBUTES = new Set(["title", "placeholder", "aria-label", "alt", "label"]);

function inWebSource(filename: string): boolean {
  const path = splitRepoPath(filename)?.path;
  return path !== undefined && path.startsWith("web/src/") && !isTestFile(path);
}

function literalTextVisitor(ctx: Deno.lint.RuleContext): Deno.lint.LintVisitor {
  if (!inWebSource(ctx.filename)) return {};
  const check = (node: Deno.lint.Node, text: string | null) => {
    if (text !== null && isUserVisibleText(text)) {
      ctx.report({ node, message: literalTextMessage(text) });
    }
  };
  return {
    JSXText: (node) => check(node, node.value),
    JSXAttribute: (node) => {
      if (node.name.type !== "JSXIdentifier" || !TEXT_ATTRIBUTES.has(node.name.name)) return;
      const value = node.value?.type === "JSXExpressionContainer"
        ? node.value.expression
        : node.value;
      if (value) check(value, literalValue(value));
    },
    // `<p>{"Save"}</p>` shows the words just like `<p>Save</p>`.
    JSXExpressionContainer: (node) => {
      if (node.parent.type !== "JSXAttribute") check(node, literalValue(node.expression));
    },
  };
}

/** The gridwatch lint plugin; loaded through `lint.plugins` in deno.json. */
export default {
  name: "gridwatch",
  rules: {
    "module-boundaries": { create: (ctx) => importVisitor(ctx, checkServerImport) },
    "web-boundaries": {
      create: (ctx) =>
        splitRepoPath(ctx.filename)?.path.startsWith("web/src/")
          ? importVisitor(ctx, checkWebImport)
          : {},
    },
    "no-literal-ui-text": { create: literalTextVisitor },
    // Deno's lint has no warning level: the rule prints its warning and reports nothing.
    "max-file-lines": {
      create: (ctx) => {
        const path = splitRepoPath(ctx.filename)?.path;
        const warning = path === undefined ? null : fileLengthWarning(path, ctx.sourceCode.text);
        if (warning !== null) console.warn(warning);
        return {};
      },
    },
  },
} satisfies Deno.lint.Plugin;
