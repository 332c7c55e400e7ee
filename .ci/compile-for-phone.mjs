// Python compiled for the phone by the runtime's own CPython (issue 42: offline mode ready within 3 s of the tap),
// run with Node (npm's) by .ci/ensure-pyodide.sh; every .pyc unchecked hash-based (no clock, no source needed).
//
//   node .ci/compile-for-phone.mjs DIR stdlib             DIR/python_stdlib.zip -> DIR/python_stdlib_pyc.zip: each
//       module as a .pyc beside where its source was (webapp/offline_stdlib.py gives the phone these instead of the
//       sources: Pyodide's start then compiles none of the modules it imports, about half of its CPU time)
//   node .ci/compile-for-phone.mjs DIR engine SRC OUT     the engine (scoring/ and the page glue, zipped by
//       webapp/offline_compiled.py) -> OUT: its __pycache__ files, which the phone unpacks beside the sources
//       (webapp/pwa.py lists OUT, compressed as a whole, in the manifest while the sources are these)
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dirArg, what, source, target] = process.argv.slice(2);
const dir = resolve(dirArg || ".cache/pyodide");
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: dir + "/", packages: [] });

const STDLIB = `
import importlib._bootstrap_external as external, importlib.util, zipfile
with zipfile.ZipFile("/tmp/in.zip") as source, zipfile.ZipFile("/tmp/out.zip", "w") as compiled:
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
`;
// as static/offline-engine-worker.js compiles it in the phone where no compiled engine is listed
const ENGINE = `
import compileall, os, py_compile, zipfile
HOME = "/home/pyodide/paiju"  # where the phone unpacks it: the compiled files name their sources there
zipfile.ZipFile("/tmp/in.zip").extractall(HOME)
compileall.compile_dir(HOME, quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
with zipfile.ZipFile("/tmp/out.zip", "w") as archive:
    for root, _dirs, files in sorted(os.walk(HOME)):
        for name in sorted(files):
            if name.endswith(".pyc"):
                path = os.path.join(root, name)
                archive.write(path, os.path.relpath(path, HOME))
`;

const [input, output, code] = what === "engine" ? [resolve(source), resolve(target), ENGINE]
  : [dir + "/python_stdlib.zip", dir + "/python_stdlib_pyc.zip", STDLIB];
pyodide.FS.writeFile("/tmp/in.zip", new Uint8Array(readFileSync(input)));
pyodide.runPython(code);
writeFileSync(output + ".tmp", pyodide.FS.readFile("/tmp/out.zip"));
renameSync(output + ".tmp", output);
