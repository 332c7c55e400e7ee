/* 牌局 Paiju's engine in the phone (offline mode, issue 29): a module worker, served at /offline-engine/worker.js
   with a Content-Security-Policy that lets it compile WebAssembly (webapp/pwa.py). It loads Pyodide from
   Paiju's own address, unpacks the repo's scoring/ package (the same code the server runs) and the page glue
   (webapp/offline_page.py, imported as paiju_offline), and answers the page's forms with the engine's answer.

   Once the engine is imported, Python's memory is kept (a snapshot, issue 42): the next load puts it back.

   The page sends {type: "load", manifest, compile} once (compile: the switch's trial load, which keeps scoring/
   compiled and the snapshot as soon as it has said ready), then {type: "answer", id, slug, action, pairs, lang}
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
/* scoring/ compiled by the server (manifest.compiled, where .ci/ensure-pyodide.sh compiled it with this runtime
   for these sources), else compiled once in the phone (Python's .pyc files, unchecked: the address names the
   versions of the engine, the glue and the runtime they were compiled from) and kept beside the engine: a later
   load skips the compiling. The page keeps this entry while the engine's own address is listed
   (static/offline-engine.js). */
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

async function kept(key) {
  try {
    return await (await caches.open(CACHE)).match(key);
  } catch (error) {
    return null;  // no Cache Storage here: load as Pyodide does
  }
}

/* Python's memory once the engine is imported (issue 42): a later load puts it back instead of starting Python and
   importing scoring/ again (3 to 10 times faster). Kept gzipped (31 MB of memory, 7 MB kept) beside the engine,
   under an address naming every version it was made from; one at a time. */
const SNAPSHOTS = typeof CompressionStream === "function" && typeof DecompressionStream === "function";

function snapshotKey(manifest) {
  return compiledKey(manifest) + "&snapshot=" + encodeURIComponent(manifest.stdlib || "");
}

async function keptSnapshot(manifest) {
  const response = SNAPSHOTS ? await kept(snapshotKey(manifest)) : null;
  if (!response) return null;
  try {
    return new Uint8Array(await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  } catch (error) {
    return null;
  }
}

async function keepSnapshot(manifest, bytes) {
  try {
    const packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
    const body = await new Response(packed).blob();
    await forgetSnapshots();
    await (await caches.open(CACHE)).put(snapshotKey(manifest), new Response(body, { headers: { "Content-Type": "application/gzip" } }));
  } catch (error) {
    /* nothing kept: the next load starts Python again */
  }
}

/* no snapshot kept any more (one that failed to load, a load that failed after it): the next load starts Python */
async function forgetSnapshots() {
  try {
    const cache = await caches.open(CACHE);
    for (const request of await cache.keys()) {
      if (request.url.includes("&snapshot=")) await cache.delete(request);
    }
  } catch (error) {
    /* no Cache Storage: nothing was kept */
  }
}

/* the engine's files, where its modules are imported from (files.engine, files.page: their bytes to come) */
async function unpack(pyodide, files) {
  const [engine, page] = await Promise.all([files.engine, files.page]);
  pyodide.unpackArchive(engine, "zip", { extractDir: HOME });
  pyodide.FS.writeFile(HOME + "/paiju_offline.py", page);
}

function useGlue(pyodide) {
  const glue = pyodide.pyimport("paiju_offline");
  answerJson = glue.answer_json;
  callJson = glue.call_json;
  heap = pyodide._module.HEAPU8;
}

/* Python's memory put back from the snapshot, the engine in it imported (its files are written after the first
   answer: every module of it is imported already, the files are for tracebacks; writing them takes Python a while) */
async function restore(loadPyodide, options, snapshot, files) {
  const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
  timings.runtime = performance.now();
  useGlue(pyodide);
  setTimeout(() => unpack(pyodide, files).catch(() => null), 3000);
  timings.snapshot = true;
  timings.engine = performance.now();
}

/* Python started and the engine imported (its compiled files where kept), then the snapshot made: kept with
   scoring/ compiled once the first answer can be given, or at once for the switch's trial load */
async function fresh(loadPyodide, options, manifest, compileNow, files) {
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: SNAPSHOTS });
  timings.runtime = performance.now();
  await unpack(pyodide, files);
  // scoring/ compiled: by this phone before, else by the server (the manifest lists it where it has it)
  const mine = await kept(compiledKey(manifest));
  const pyc = mine ? await mine.arrayBuffer() : await files.compiled;
  if (pyc) pyodide.unpackArchive(pyc, "zip", { extractDir: HOME });
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(HOME)})\nimport paiju_offline`);
  const snapshot = SNAPSHOTS ? pyodide.makeMemorySnapshot() : null;  // before any of Python is handed to JavaScript
  timings.snapshot = false;
  timings.compiledKept = !!pyc;
  timings.engine = performance.now();
  useGlue(pyodide);
  const keep = async () => {
    if (!pyc) await keepCompiled(pyodide, manifest);
    if (snapshot) await keepSnapshot(manifest, snapshot);
  };
  setTimeout(keep, compileNow ? 0 : 3000);
}

async function load(manifest, compileNow) {
  const { loadPyodide } = await import(manifest.runtime + "pyodide.mjs");
  // the engine's files come while Python starts (issue 42: the runtime's download is not kept waiting for them);
  // a failure is the load's when they are awaited
  const files = {
    engine: fetchOk(manifest.engine).then((r) => r.arrayBuffer()),
    page: fetchOk(manifest.page).then((r) => r.text()),
    // only a fresh start waits for it; without it the phone compiles the engine itself
    compiled: manifest.compiled ? fetchOk(manifest.compiled).then((r) => r.arrayBuffer()).catch(() => null) : null,
  };
  files.engine.catch(() => null);
  files.page.catch(() => null);
  // the standard library: the engine's part of it (webapp/offline_stdlib.py), where the manifest names one
  const stdlib = manifest.stdlib ? { stdLibURL: manifest.stdlib } : {};
  const options = { indexURL: manifest.runtime, packages: [], ...stdlib };
  const snapshot = await keptSnapshot(manifest);
  if (snapshot) {
    try {
      return await restore(loadPyodide, options, snapshot, files);
    } catch (error) {
      await forgetSnapshots();  // a snapshot this runtime cannot take: Python starts as without one
    }
  }
  await fresh(loadPyodide, options, manifest, compileNow, files);
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
  if (!loading) return;
  loading = false;
  // whatever failed, the next load starts Python without a snapshot (one that broke this load would break them all)
  forgetSnapshots().then(() => self.postMessage({ type: "failed", message: String(error && error.message || error) }));
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
