// Compile a python_stdlib.zip to bytecode with the vendored Pyodide's own Python (the setup
// step; make vendor runs it on the trimmed zip that scripts/trim_stdlib.py writes).
//
//   node scripts/compile_stdlib.mjs SOURCE.zip OUTPUT.zip [--optimize N] [--keep-dataclass-docs]
//                                  [--mount PREFIX] [--dataclass-code MEMBER]
//                                  [--pyscript-cache MEMBER]
//
// Why: Pyodide's npm package ships its standard library as .py sources, so every boot compiles
// each module it imports (asyncio, re, json, gettext, ...) from source, on the main thread. A
// zip of .pyc files (sourceless, as zipimport loads them) skips that. Only this Pyodide's
// Python can write its bytecode (the build host's CPython is another version), so the script
// boots node_modules/pyodide (the package make vendor copies to static/vendor/pyodide/) in
// Node and compiles there.
//
// Each member X.py becomes X.pyc (same folder, same date, where zipimport finds a module
// without its source); every other member is copied as it is. The code's file name is
// PREFIX/X.py, PREFIX being the zip's path at run time: by default where Pyodide mounts the
// stdlib; the game's own archive (scripts/pyscript_config.py) passes its path in PyScript's
// working folder. So a traceback names the module's usual path and line, without its source
// line (there is no source to show), and the code keeps no columns (they only mark a part of
// that line: PYTHONNODEBUGRANGES, as `python -X no_debug_ranges`). zipimport looks for X.pyc
// whatever the interpreter's optimization level, so bytecode compiled with --optimize 2 (no
// docstrings, no asserts, as `python -OO`) loads in Pyodide, which runs without -O. Members
// keep their order; the output is the same bytes for the same input. Exits 1 (and writes
// nothing) if a member does not compile.
//
// --keep-dataclass-docs (with --optimize 2): every docstring goes but a dataclass's. A
// dataclass without one gets one made by inspect.signature when its module runs, which costs
// more at start-up than the kept docstrings cost the archive (docs/startup.md).
//
// --dataclass-code MEMBER: the output also holds MEMBER, the methods its dataclasses compile
// (nestor_web/browser/precompiled.py reads it in the page): every module of the output is
// imported (a module needing the browser's `pyscript` stops there), each text a dataclass
// compiles is kept with its code, and the modules are imported again from that table to check
// that each text is found in it.
//
// --pyscript-cache MEMBER: the output also holds MEMBER, the bytecode of PyScript's own Python
// package (node_modules/@pyscript/core's src/stdlib/pyscript.js, the texts PyScript writes into
// its working folder at each start), the modules its start imports: a marshalled dict of each
// module's cache path there (pyscript/__pycache__/X.cpython-3NN.pyc) to a checked hash-based
// pyc, which Python uses only if the source beside it has the hash it was compiled from.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

function usage(message) {
  console.error(`compile_stdlib: ${message}\nusage: node scripts/compile_stdlib.mjs SOURCE.zip OUTPUT.zip [--optimize N] [--keep-dataclass-docs] [--mount PREFIX] [--dataclass-code MEMBER] [--pyscript-cache MEMBER]`);
  process.exit(2);
}

const args = process.argv.slice(2);

// The value after the option `name` (taken out of args), or null without it; usage() with
// `wanted` if `valid` refuses the value.
function option(name, valid, wanted) {
  const at = args.indexOf(name);
  if (at < 0) return null;
  const value = args[at + 1];
  if (value === undefined || !valid(value)) usage(`${name} takes ${wanted}`);
  args.splice(at, 2);
  return value;
}

const optimize = Number(option("--optimize", (v) => ["0", "1", "2"].includes(v), "0, 1 or 2") ?? 0);
const dataclassDocs = args.includes("--keep-dataclass-docs");
if (dataclassDocs) {
  if (optimize !== 2) usage("--keep-dataclass-docs goes with --optimize 2");
  args.splice(args.indexOf("--keep-dataclass-docs"), 1);
}
const mount = option("--mount", (v) => v.startsWith("/"), "an absolute path");
const member = (v) => !v.startsWith("-");
const dataclassCode = option("--dataclass-code", member, "a member's path");
const pyscriptCache = option("--pyscript-cache", member, "a member's path");
if (args.length !== 2) usage("expected SOURCE.zip and OUTPUT.zip");
const pyscriptSources = pyscriptCache
  ? JSON.stringify((await import("../node_modules/@pyscript/core/src/stdlib/pyscript.js")).default)
  : null;
const [source, output] = args;

const pyodide = await loadPyodide({
  stdout: () => {}, stderr: (line) => console.error(line), env: { PYTHONNODEBUGRANGES: "1" },
});
pyodide.FS.writeFile("/tmp/source.zip", new Uint8Array(readFileSync(source)));
pyodide.globals.set("OPTIMIZE", optimize);
pyodide.globals.set("MOUNT", mount);
pyodide.globals.set("DATACLASS_DOCS", dataclassDocs);
pyodide.globals.set("DATACLASS_CODE", dataclassCode);
pyodide.globals.set("PYSCRIPT_CACHE", pyscriptCache);
pyodide.globals.set("PYSCRIPT_SOURCES", pyscriptSources);
let report;
try {
  report = pyodide.runPython(`
import ast, importlib, sys, zipfile
from importlib._bootstrap_external import _code_to_timestamp_pyc


def is_dataclass(node):
    """Whether the class statement node is decorated with dataclass."""
    for decorator in node.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        if getattr(called, "id", getattr(called, "attr", None)) == "dataclass":
            return True
    return False


def without_docstrings(data):
    """The tree of the source data without the docstrings -OO drops, but a dataclass's."""
    tree = ast.parse(data)
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(tree):
        if not isinstance(node, kinds) or isinstance(node, ast.ClassDef) and is_dataclass(node):
            continue
        first = node.body[0] if node.body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \\
                and isinstance(first.value.value, str):
            node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree

mount = MOUNT or next(p for p in sys.path if p.endswith(".zip"))  # the stdlib's mount
compiled = copied = 0
with zipfile.ZipFile("/tmp/source.zip") as src, \\
        zipfile.ZipFile("/tmp/output.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py"):
            if DATACLASS_DOCS:  # -OO's asserts out (optimize 1), its docstrings by hand
                code = compile(without_docstrings(data), f"{mount}/{info.filename}", "exec",
                               dont_inherit=True, optimize=1)
            else:
                code = compile(data, f"{mount}/{info.filename}", "exec", dont_inherit=True,
                               optimize=OPTIMIZE)
            member = zipfile.ZipInfo(info.filename + "c", info.date_time)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = info.external_attr
            # A timestamp pyc with no source beside it: zipimport does not check the stamp.
            out.writestr(member, bytes(_code_to_timestamp_pyc(code, 0, len(data))))
            compiled += 1
        else:
            out.writestr(info, data)
            copied += 1
report = f"{compiled} modules compiled, {copied} members copied"


def add_member(name, data):
    """Appends the member name (data, deflated, a fixed date) to the output."""
    with zipfile.ZipFile("/tmp/output.zip", "a", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        member = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
        member.compress_type = zipfile.ZIP_DEFLATED
        member.external_attr = 0o644 << 16
        out.writestr(member, data)


def import_all(members):
    """Imports every module of the output; one that needs the browser's pyscript stops there."""
    for name in members:
        if not name.endswith(".pyc"):
            continue
        module = name[:-4].replace("/", ".").removesuffix(".__init__")
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != "pyscript":
                raise


if DATACLASS_CODE:
    import builtins, dataclasses, marshal
    with zipfile.ZipFile("/tmp/output.zip") as built:
        members = built.namelist()
    texts = {}
    run = builtins.exec

    def record(source, globals=None, locals=None, /):
        if isinstance(source, str):
            texts.setdefault(source, compile(source, "<string>", "exec", dont_inherit=True))
        return run(source, globals, locals)

    def found(source, globals=None, locals=None, /):
        if isinstance(source, str):
            if source not in texts:
                raise RuntimeError(f"a dataclass compiled a text the table lacks:\\n{source}")
            source = texts[source]
        return run(source, globals, locals)

    sys.path.insert(0, "/tmp/output.zip")
    before = set(sys.modules)
    for exec_ in (record, found):
        dataclasses.exec = exec_
        import_all(members)
        for module in set(sys.modules) - before:
            del sys.modules[module]
        importlib.invalidate_caches()
    del dataclasses.exec
    sys.path.remove("/tmp/output.zip")
    add_member(DATACLASS_CODE, marshal.dumps(texts))
    report += f", {len(texts)} dataclass texts in {DATACLASS_CODE}"
if PYSCRIPT_CACHE:
    import importlib.util, json, marshal
    from importlib._bootstrap_external import _code_to_hash_pyc

    sources = {f"pyscript/{name}": text
               for name, text in json.loads(PYSCRIPT_SOURCES)["pyscript"].items()}

    def imported_at_start(path, seen):
        """The package's modules its import runs: from its __init__, each module a
        module's top-level statements import (an import inside a function waits for its call)."""
        seen.add(path)
        for node in ast.parse(sources[path]).body:
            for statement in ast.walk(node):
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    break
                names = [a.name for a in statement.names] if isinstance(statement, ast.Import) \\
                    else [statement.module or ""] if isinstance(statement, ast.ImportFrom) else []
                for name in names:
                    target = name.replace(".", "/") + ".py"
                    if target in sources and target not in seen:
                        imported_at_start(target, seen)
        return seen

    cache = {}
    for path in sorted(imported_at_start("pyscript/__init__.py", set())):
        data = sources[path].encode()
        code = compile(data, path, "exec", dont_inherit=True)
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=True)
        cache[importlib.util.cache_from_source(path)] = bytes(pyc)
    add_member(PYSCRIPT_CACHE, marshal.dumps(cache))
    report += f", {len(cache)} of PyScript's modules in {PYSCRIPT_CACHE}"
f"{report}, Python {sys.version.split()[0]}"
`);
} catch (error) {
  console.error(`compile_stdlib: ${source}: ${error.message}`);
  process.exit(1);
}
const partial = `${output}.part`;
writeFileSync(partial, pyodide.FS.readFile("/tmp/output.zip"));
renameSync(partial, output);
const before = readFileSync(source).length;
const after = readFileSync(output).length;
console.log(`compile_stdlib: ${output}: ${report}; ${after.toLocaleString("en")} bytes (source zip ${before.toLocaleString("en")})`);
