/**
 * Import graph of the server code (modules/, core/, main.ts) for the architecture tests.
 *
 * Pure: it takes file paths and texts and never reads the disk, so its rules can be tested on
 * synthetic file sets. The imports are found by a small lexer, not a full parser: it skips
 * comments, string contents, template literals and regular expressions, which is enough to
 * keep example code in strings and comments from being read as imports. Paths are resolved and
 * classified by the same helpers as the gridwatch lint plugin, so both checks agree on what a
 * module and a test file are.
 *
 * @module
 */

import {
  checkWebImport,
  isContractImport,
  isTestFile,
  isWebImportable,
  resolveImport,
  serverOwner as unitOf,
} from "../../scripts/lint/boundaries_plugin.ts";

/** A source file: repository-relative POSIX path and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** One relative import between two repository files. */
export interface Edge {
  from: string;
  to: string;
  specifier: string;
}

/** The file edges and, per unit (`modules/<name>`, `core`, `main.ts`), its non-test edges. */
export interface ImportGraph {
  edges: Edge[];
  units: Map<string, Map<string, Edge>>;
}

interface Token {
  kind: "word" | "string" | "punct";
  value: string;
}

const WORD = /[\p{L}\p{N}_$]+/uy;
const REGEX_AFTER = new Set(["return", "typeof", "case", "do", "else", "in", "of", "new"]);
const EXPRESSION_END = new Set([")", "]", "}", "`", "/re/"]);

function quoteEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== text[start] && text[i] !== "\n") {
    i += text[i] === "\\" ? 2 : 1;
  }
  return i;
}

function templateEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== "`") {
    if (text[i] === "$" && text[i + 1] === "{") i = bracesEnd(text, i + 2);
    else i += text[i] === "\\" ? 2 : 1;
  }
  return i + 1;
}

function bracesEnd(text: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < text.length && depth > 0) {
    const c = text[i];
    if (c === '"' || c === "'") i = quoteEnd(text, i) + 1;
    else if (c === "`") i = templateEnd(text, i);
    else {
      depth += c === "{" ? 1 : c === "}" ? -1 : 0;
      i++;
    }
  }
  return i;
}

function regexEnd(text: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < text.length && text[i] !== "\n" && (inClass || text[i] !== "/")) {
    if (text[i] === "[") inClass = true;
    if (text[i] === "]") inClass = false;
    i += text[i] === "\\" ? 2 : 1;
  }
  WORD.lastIndex = i + 1;
  return WORD.exec(text) ? WORD.lastIndex : i + 1;
}

function skipTo(text: string, end: string, from: number): number {
  const at = text.indexOf(end, from);
  return at < 0 ? text.length : at;
}

function regexAllowed(previous: Token | undefined): boolean {
  if (previous === undefined) return true;
  if (previous.kind === "word") return REGEX_AFTER.has(previous.value);
  return previous.kind === "punct" && !EXPRESSION_END.has(previous.value);
}

/** Splits source text into words, string literals and punctuation, dropping everything else. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (/\s/.test(c)) i++;
    else if (c === "/" && next === "/") i = skipTo(text, "\n", i);
    else if (c === "/" && next === "*") i = skipTo(text, "*/", i + 2) + 2;
    else if (c === '"' || c === "'") {
      const end = quoteEnd(text, i);
      tokens.push({ kind: "string", value: text.slice(i + 1, end) });
      i = end + 1;
    } else if (c === "`") {
      i = templateEnd(text, i);
      tokens.push({ kind: "punct", value: "`" });
    } else if (c === "/" && regexAllowed(tokens.at(-1))) {
      i = regexEnd(text, i);
      tokens.push({ kind: "punct", value: "/re/" });
    } else {
      WORD.lastIndex = i;
      const word = WORD.exec(text)?.[0];
      tokens.push(word ? { kind: "word", value: word } : { kind: "punct", value: c });
      i += word ? word.length : 1;
    }
  }
  return tokens;
}

const CLAUSE_PUNCT = new Set(["{", "}", ",", "*"]);

/** The `from "x"` of an import or export clause starting after token `start`, if any. */
function clauseSource(tokens: Token[], start: number): string | null {
  for (let j = start; j < tokens.length; j++) {
    const token = tokens[j]!;
    const next = tokens[j + 1];
    if (token.value === "from" && next?.kind === "string") return next.value;
    if (token.kind !== "word" && !CLAUSE_PUNCT.has(token.value)) return null;
  }
  return null;
}

/**
 * The specifiers a file imports: `import ... from "x"`, `import type ... from "x"`,
 * `import "x"`, `export ... from "x"` and `import("x")`, in order, without duplicates.
 */
export function importSpecifiers(text: string): string[] {
  const tokens = tokenize(text);
  const found = new Set<string>();
  tokens.forEach((token, k) => {
    const isKeyword = token.kind === "word" &&
      (token.value === "import" || token.value === "export");
    if (!isKeyword || tokens[k - 1]?.value === ".") return;
    const next = tokens[k + 1];
    const afterNext = tokens[k + 2];
    if (token.value === "import" && next?.kind === "string") found.add(next.value);
    else if (token.value === "import" && next?.value === "(") {
      if (afterNext?.kind === "string") found.add(afterNext.value);
    } else {
      const source = clauseSource(tokens, k + 1);
      if (source !== null) found.add(source);
    }
  });
  return [...found];
}

/** Builds the file edges and the unit graph; test files add no unit edge (no runtime cycle). */
export function buildImportGraph(files: SourceFile[]): ImportGraph {
  const edges: Edge[] = [];
  const units = new Map<string, Map<string, Edge>>();
  for (const file of files) {
    for (const specifier of importSpecifiers(file.text)) {
      const to = resolveImport(file.path, specifier);
      if (to === null) continue;
      const edge = { from: file.path, to, specifier };
      edges.push(edge);
      const [fromUnit, toUnit] = [unitOf(file.path), unitOf(to)];
      if (fromUnit === null || toUnit === null || fromUnit === toUnit) continue;
      if (isTestFile(file.path)) continue;
      const targets = units.get(fromUnit) ?? new Map<string, Edge>();
      if (!targets.has(toUnit)) targets.set(toUnit, edge);
      units.set(fromUnit, targets);
    }
  }
  return { edges, units };
}

/** Strongly connected components of the unit graph (Tarjan), largest meaning cyclic. */
function components(units: Map<string, Map<string, Edge>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const result: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit)!);
    stack.push(unit);
    for (const next of units.get(unit)?.keys() ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(unit, Math.min(low.get(unit)!, low.get(next)!));
    }
    if (low.get(unit) !== index.get(unit)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== unit);
    result.push(component.sort());
  };
  for (const unit of [...units.keys()].sort()) if (!index.has(unit)) visit(unit);
  return result;
}

/** A shortest cycle through `start` that stays inside `members` (breadth-first search). */
function cycleThrough(start: string, members: Set<string>, graph: ImportGraph): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const unit = queue.shift()!;
    for (const next of [...(graph.units.get(unit)?.keys() ?? [])].sort()) {
      if (!members.has(next) || previous.has(next)) continue;
      previous.set(next, unit);
      if (next === start) queue.length = 0;
      else queue.push(next);
    }
  }
  const path: string[] = [];
  for (let unit = previous.get(start)!; unit !== start; unit = previous.get(unit)!) {
    path.unshift(unit);
  }
  return [start, ...path, start];
}

/** One line for a file edge: `modules/a/x.ts -> modules/b/mod.ts ("../b/mod.ts")`. */
export function describeEdge(edge: Edge): string {
  return `${edge.from} -> ${edge.to} ("${edge.specifier}")`;
}

/** Each import cycle between units, with one file edge for each step. */
export function findCycles(graph: ImportGraph): string[] {
  return components(graph.units).filter((component) => component.length > 1).map((component) => {
    const cycle = cycleThrough(component[0]!, new Set(component), graph);
    const steps = cycle.slice(1).map((to, i) => graph.units.get(cycle[i]!)!.get(to)!);
    return `${cycle.join(" -> ")}: ${steps.map(describeEdge).join("; ")}`;
  });
}

/** Edges by which kernel/ or core/ reach another unit (kernel: none; core: kernel only). */
export function layeringViolations(graph: ImportGraph): string[] {
  return graph.edges.filter((edge) => {
    const [from, to] = [unitOf(edge.from), unitOf(edge.to)];
    if (to === null || to === from) return false;
    return from === "kernel" || (from === "core" && to !== "kernel");
  }).map(describeEdge);
}

/** Edges from outside a module (or core/) to one of its files other than its mod.ts. */
export function deepImports(graph: ImportGraph): string[] {
  return graph.edges.filter((edge) => {
    const [from, to] = [unitOf(edge.from), unitOf(edge.to)];
    if (from === null || to === null || to === "main.ts" || from === to) return false;
    return edge.to !== `${to}/mod.ts` && !isContractImport(edge.from, edge.to);
  }).map(describeEdge);
}

/** Imports of web/src that leave web/ for anything but a contract or a pure rule file. */
export function webImportViolations(files: SourceFile[]): string[] {
  return buildImportGraph(files).edges.filter((edge) =>
    edge.from.startsWith("web/src/") && !edge.to.startsWith("web/") &&
    checkWebImport(edge.from, edge.to) !== null
  ).map(describeEdge);
}

/** npm packages the shared files (contracts and pure rule files) may import. */
const SHARED_PACKAGES = /^(zod|libphonenumber-js|@zxcvbn-ts\/[\w-]+)(\/|$)/;

/**
 * Imports of the files the web app shares with the server (every `contract.ts` and the pure
 * rule files) that would pull server code into the browser: anything but the packages above,
 * the other shared files of the same module and (from a contract) another module's contract.
 */
export function sharedFileViolations(files: SourceFile[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (!isWebImportable(file.path)) continue;
    for (const specifier of importSpecifiers(file.text)) {
      const to = resolveImport(file.path, specifier);
      const sameModule = to !== null && unitOf(to) === unitOf(file.path) && isWebImportable(to);
      const allowed = to === null
        ? SHARED_PACKAGES.test(specifier)
        : sameModule || isContractImport(file.path, to);
      if (!allowed) problems.push(`${file.path} imports "${specifier}"`);
    }
  }
  return problems;
}
