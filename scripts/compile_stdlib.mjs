// Compile a python_stdlib.zip to bytecode with the vendored Pyodide's own Python (the setup
// step; make vendor runs it on the trimmed zip that scripts/trim_stdlib.py writes).
//
//   node scripts/compile_stdlib.mjs SOURCE.zip OUTPUT.zip [--optimize N] [--beside PREFIX]
//
// Why: Pyodide's npm package ships its standard library as .py sources, so every boot compiles
// each module it imports (asyncio, re, json, gettext, ...) from source, on the main thread. A
// zip of .pyc files (sourceless, as zipimport loads them) skips that. Only this Pyodide's
// Python can write its bytecode (the build host's CPython is another version), so the script
// boots node_modules/pyodide (the package make vendor copies to static/vendor/pyodide/) in
// Node and compiles there.
//
// Each member X.py becomes X.pyc (same folder, same date; the code's file name is the path
// Pyodide mounts the stdlib at, so tracebacks name the module's usual path, without its source
// lines); every other member is copied as it is. Members keep their order; the output is the
// same bytes for the same input. Exits 1 (and writes nothing) if a member does not compile.
//
// --beside PREFIX (the game's own modules, scripts/pyscript_config.py): each X.py is kept and
// its bytecode X.pyc written right after it, in the same folder, where zipimport looks first
// when the archive itself is on sys.path, as an unchecked-hash pyc: the import reads it without
// comparing it with the source, which comes from the same build. PREFIX is the archive's path
// at run time (in PyScript's working folder), for the code's file name: a traceback names the
// module inside the archive, and shows its source lines, as the source is there.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

function usage(message) {
  console.error(`compile_stdlib: ${message}\nusage: node scripts/compile_stdlib.mjs SOURCE.zip OUTPUT.zip [--optimize N] [--beside PREFIX]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let optimize = 0;
const at = args.indexOf("--optimize");
if (at >= 0) {
  optimize = Number(args[at + 1]);
  if (![0, 1, 2].includes(optimize)) usage("--optimize takes 0, 1 or 2");
  args.splice(at, 2);
}
let beside = null;
const prefixAt = args.indexOf("--beside");
if (prefixAt >= 0) {
  beside = args[prefixAt + 1];
  if (!beside || !beside.startsWith("/")) usage("--beside takes an absolute folder");
  args.splice(prefixAt, 2);
}
if (args.length !== 2) usage("expected SOURCE.zip and OUTPUT.zip");
const [source, output] = args;

const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
pyodide.FS.writeFile("/tmp/source.zip", new Uint8Array(readFileSync(source)));
pyodide.globals.set("OPTIMIZE", optimize);
pyodide.globals.set("BESIDE", beside);
let report;
try {
  report = pyodide.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc, _code_to_timestamp_pyc

mount = BESIDE or next(p for p in sys.path if p.endswith(".zip"))  # the stdlib's mount
compiled = copied = 0
with zipfile.ZipFile("/tmp/source.zip") as src, \\
        zipfile.ZipFile("/tmp/output.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py") and BESIDE:
            out.writestr(info, data)
            code = compile(data, f"{mount}/{info.filename}", "exec", dont_inherit=True,
                           optimize=OPTIMIZE)
            member = zipfile.ZipInfo(info.filename + "c", info.date_time)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = info.external_attr
            # checked=False: the import reads it without hashing the source again.
            source_hash = importlib.util.source_hash(data)
            out.writestr(member, bytes(_code_to_hash_pyc(code, source_hash, checked=False)))
            compiled += 1
        elif info.filename.endswith(".py"):
            code = compile(data, f"{mount}/{info.filename}", "exec", dont_inherit=True,
                           optimize=OPTIMIZE)
            member = zipfile.ZipInfo(info.filename + "c", info.date_time)
            member.compress_type = zipfile.ZIP_DEFLATED
            # A timestamp pyc with no source beside it: zipimport does not check the stamp.
            out.writestr(member, bytes(_code_to_timestamp_pyc(code, 0, len(data))))
            compiled += 1
        else:
            out.writestr(info, data)
            copied += 1
f"{compiled} modules compiled, {copied} members copied, Python {sys.version.split()[0]}"
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
