/* 牌局 Paiju's engine in the phone (offline mode, issue 29): a module worker, served at /offline-engine/worker.js
   with a Content-Security-Policy that lets it compile WebAssembly (webapp/pwa.py). It loads Pyodide from
   Paiju's own address, unpacks the repo's scoring/ package (the same code the server runs) and the page glue
   (webapp/offline_page.py, imported as paiju_offline), and answers the page's forms with the engine's answer.

   The page sends {type: "load", manifest, compile} once (compile: keep scoring/ compiled before saying ready), then {type: "answer", id, slug, action, pairs, lang}
   for a form, or {type: "call", id, name, args} for one of the glue's other calls (paiju_offline.CALLS: the hands
   a table page holds, chained by the engine); it gets {type: "ready"} or {type: "failed", message}, and
   {type: "answer", id, reply} for each.
   {type: "memory", id} is answered with the bytes the worker holds (bench/offline.py). */
let answerJson = null;
let callJson = null;
let heap = null;  // the WebAssembly memory Python lives in (its size is what the phone holds for it)

const timings = {};  // ms since the worker started, at each step of the load (bench/offline.py prints them)

const HOME = "/home/pyodide/paiju";
const CACHE = "paiju-engine";
/* scoring/ compiled once in the phone (Python's .pyc files, unchecked: the address names the versions of the
   engine, the glue and the runtime they were compiled from) and kept beside the engine: a later load skips the
   compiling. The page keeps this entry while the engine's own address is listed (static/offline-engine.js). */
const COMPILE = `
import compileall, io, os, py_compile, zipfile
compileall.compile_dir(${JSON.stringify(HOME)}, quiet=1,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w") as archive:
    for root, _dirs, files in os.walk(${JSON.stringify(HOME)}):
        for name in files:
            if name.endswith(".pyc"):
                path = os.path.join(root, name)
                archive.write(path, os.path.relpath(path, ${JSON.stringify(HOME)}))
buffer.getvalue()
`;

function compiledKey(manifest) {
  return manifest.engine + "&pyc=" + encodeURIComponent(manifest.page + " " + manifest.runtime);
}

async function keptCompiled(manifest) {
  try {
    return await (await caches.open(CACHE)).match(compiledKey(manifest));
  } catch (error) {
    return null;  // no Cache Storage here: compile as Python does
  }
}

async function load(manifest, compileNow) {
  const { loadPyodide } = await import(manifest.runtime + "pyodide.mjs");
  const engine = fetchOk(manifest.engine), page = fetchOk(manifest.page), compiled = keptCompiled(manifest);
  // the standard library: the engine's part of it (webapp/offline_stdlib.py), where the manifest names one
  const stdlib = manifest.stdlib ? { stdLibURL: manifest.stdlib } : {};
  const pyodide = await loadPyodide({ indexURL: manifest.runtime, packages: [], ...stdlib });
  timings.runtime = performance.now();
  pyodide.unpackArchive(await (await engine).arrayBuffer(), "zip", { extractDir: HOME });
  pyodide.FS.writeFile(HOME + "/paiju_offline.py", await (await page).text());
  const kept = await compiled;
  if (kept) pyodide.unpackArchive(await kept.arrayBuffer(), "zip", { extractDir: HOME });
  timings.compiledKept = !!kept;
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(HOME)})\nimport paiju_offline`);
  timings.engine = performance.now();
  const glue = pyodide.pyimport("paiju_offline");
  answerJson = glue.answer_json;
  callJson = glue.call_json;
  heap = pyodide._module.HEAPU8;
  if (kept) return;
  if (compileNow) await keepCompiled(pyodide, manifest);  // the switch's trial load: nobody waits for an answer
  else setTimeout(() => keepCompiled(pyodide, manifest), 3000);  // not in the way of a first answer
}

/* after the first answer can be given: compile scoring/ and keep it (a failure only costs the next load time) */
async function keepCompiled(pyodide, manifest) {
  try {
    const bytes = pyodide.runPython(COMPILE).toJs();
    const cache = await caches.open(CACHE);
    await cache.put(compiledKey(manifest), new Response(bytes, { headers: { "Content-Type": "application/zip" } }));
  } catch (error) {
    /* nothing kept: the next load compiles again */
  }
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ": " + response.status);
  return response;
}

// a load that fails where no await sees it (Emscripten's fetch of the wasm, an abort when memory runs out)
let loading = false;
function failed(error) {
  if (loading) self.postMessage({ type: "failed", message: String(error && error.message || error) });
  loading = false;
}
self.addEventListener("unhandledrejection", (event) => failed(event.reason));
self.addEventListener("error", (event) => failed(event.message));

/* the glue's JSON answer, or why the engine could not give one */
function replyOf(work) {
  try {
    return JSON.parse(work());
  } catch (error) {
    return { failed: String(error && error.message || error) };
  }
}

self.onmessage = async (event) => {
  const message = event.data || {};
  if (message.type === "load") {
    loading = true;
    try {
      await load(message.manifest, !!message.compile);
      if (loading) self.postMessage({ type: "ready" });
      loading = false;
    } catch (error) {
      failed(error);
    }
  } else if (message.type === "answer") {
    const pairs = JSON.stringify(message.pairs);
    self.postMessage({ type: "answer", id: message.id,
                       reply: replyOf(() => answerJson(message.slug, message.action, pairs, message.lang)) });
  } else if (message.type === "call") {
    const args = JSON.stringify(message.args);
    self.postMessage({ type: "answer", id: message.id, reply: replyOf(() => callJson(message.name, args)) });
  } else if (message.type === "memory") {  // for bench/offline.py
    const js = self.performance && self.performance.memory ? self.performance.memory.usedJSHeapSize : null;
    self.postMessage({ type: "answer", id: message.id, reply: { wasm: heap ? heap.buffer.byteLength : null, js, timings } });
  }
};
