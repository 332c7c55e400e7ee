// Pyodide's standard library compiled by the runtime's own CPython, for the phone (issue 42): run by
// .ci/ensure-pyodide.sh with Node (npm's), it writes .cache/pyodide/python_stdlib_pyc.zip, every module of
// python_stdlib.zip as an unchecked hash-based .pyc (no clock, no source needed). webapp/offline_stdlib.py gives
// the phone these instead of the sources: Pyodide's start then compiles none of the modules it imports (about
// half of its CPU time). Usage: node .ci/compile-stdlib.mjs .cache/pyodide
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2] || ".cache/pyodide");
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: dir + "/", packages: [] });
pyodide.FS.writeFile("/tmp/stdlib.zip", new Uint8Array(readFileSync(dir + "/python_stdlib.zip")));
pyodide.runPython(`
import importlib._bootstrap_external as external, importlib.util, zipfile
with zipfile.ZipFile("/tmp/stdlib.zip") as source, zipfile.ZipFile("/tmp/compiled.zip", "w") as compiled:
    for info in source.infolist():
        if not info.filename.endswith(".py"):
            continue
        text = source.read(info)
        try:
            code = compile(text, info.filename, "exec", dont_inherit=True)
        except SyntaxError:  # a test's deliberately broken file: the phone gets the source, as before
            continue
        pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(text), False)
        compiled.writestr(zipfile.ZipInfo(info.filename + "c", date_time=(1980, 1, 1, 0, 0, 0)), bytes(pyc))
`);
writeFileSync(dir + "/python_stdlib_pyc.zip.tmp", pyodide.FS.readFile("/tmp/compiled.zip"));
renameSync(dir + "/python_stdlib_pyc.zip.tmp", dir + "/python_stdlib_pyc.zip");
