// Architecture test: the real modules/, kernel/, core/ and main.ts obey the module boundaries.
// It reads whatever is on disk, half-written files included; a file that vanishes while it
// runs is skipped.
import { fileURLToPath } from "node:url";
import {
  buildImportGraph,
  deepImports,
  findCycles,
  type ImportGraph,
  layeringViolations,
  sharedFileViolations,
  type SourceFile,
  webImportViolations,
} from "./import_graph.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "data"]);
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?)$/;

async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(`${ROOT}${path}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

async function walk(folder: string, files: SourceFile[]): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(`${ROOT}${folder}`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = `${folder}/${entry.name}`;
    if (entry.name.startsWith(".") || SKIPPED_FOLDERS.has(entry.name)) continue;
    if (entry.isDirectory) await walk(path, files);
    if (!entry.isFile || !SOURCE_FILE.test(entry.name)) continue;
    const text = await readIfPresent(path);
    if (text !== null) files.push({ path, text });
  }
}

async function readWebCode(): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  await walk("web/src", files);
  return files;
}

async function readServerCode(): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  await walk("modules", files);
  await walk("kernel", files);
  await walk("core", files);
  const main = await readIfPresent("main.ts");
  if (main !== null) files.push({ path: "main.ts", text: main });
  return files;
}

let graph: Promise<ImportGraph> | undefined;
function serverGraph(): Promise<ImportGraph> {
  graph ??= readServerCode().then(buildImportGraph);
  return graph;
}

function assertNone(title: string, problems: string[]): void {
  if (problems.length > 0) throw new Error(`${title}:\n  ${problems.join("\n  ")}`);
}

Deno.test("import graph of modules/, core/ and main.ts has no cycle between modules", async () => {
  assertNone("Import cycles between modules", findCycles(await serverGraph()));
});

Deno.test("import graph shows kernel/ and core/ importing no other module", async () => {
  assertNone(
    "Imports from the kernel or core/ into another module",
    layeringViolations(await serverGraph()),
  );
});

Deno.test("import graph shows files outside a module importing only its mod.ts", async () => {
  assertNone(
    "Imports that bypass a module's public export mod.ts",
    deepImports(await serverGraph()),
  );
});

Deno.test("web/src imports from the server only contracts and the pure rule files", async () => {
  assertNone("Web imports of server code", webImportViolations(await readWebCode()));
});

Deno.test("contracts and pure rule files import only zod, their rule libraries and each other", async () => {
  assertNone(
    "Shared files that would pull server code into the browser",
    sharedFileViolations(await readServerCode()),
  );
});
