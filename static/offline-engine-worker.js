/* 牌局 Paiju's engine in the phone (offline mode, issue 29): a module worker, served at /offline-engine/worker.js
   with a Content-Security-Policy that lets it compile WebAssembly (webapp/pwa.py). It loads Pyodide from
   Paiju's own address, unpacks the repo's scoring/ package (the same code the server runs) and the page glue
   (webapp/offline_page.py, imported as paiju_offline), and answers the page's forms with the engine's answer.

   The page sends {type: "load", manifest} once, then {type: "answer", id, slug, action, pairs, lang};
   it gets {type: "ready"} or {type: "failed", message}, and {type: "answer", id, reply} for each form.
   {type: "memory", id} is answered with the bytes the worker holds (bench/offline.py). */
let answerJson = null;
let heap = null;  // the WebAssembly memory Python lives in (its size is what the phone holds for it)

const timings = {};  // ms since the worker started, at each step of the load (bench/offline.py prints them)

async function load(manifest) {
  const { loadPyodide } = await import(manifest.runtime + "pyodide.mjs");
  const engine = fetchOk(manifest.engine), page = fetchOk(manifest.page);
  const pyodide = await loadPyodide({ indexURL: manifest.runtime, packages: [] });
  timings.runtime = performance.now();
  pyodide.unpackArchive(await (await engine).arrayBuffer(), "zip", { extractDir: "/home/pyodide/paiju" });
  pyodide.FS.writeFile("/home/pyodide/paiju/paiju_offline.py", await (await page).text());
  pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/paiju')\nimport paiju_offline");
  timings.engine = performance.now();
  answerJson = pyodide.pyimport("paiju_offline").answer_json;
  heap = pyodide._module.HEAPU8;
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

self.onmessage = async (event) => {
  const message = event.data || {};
  if (message.type === "load") {
    loading = true;
    try {
      await load(message.manifest);
      if (loading) self.postMessage({ type: "ready" });
      loading = false;
    } catch (error) {
      failed(error);
    }
  } else if (message.type === "answer") {
    let reply;
    try {
      reply = JSON.parse(answerJson(message.slug, message.action, JSON.stringify(message.pairs), message.lang));
    } catch (error) {
      reply = { failed: String(error && error.message || error) };
    }
    self.postMessage({ type: "answer", id: message.id, reply });
  } else if (message.type === "memory") {  // for bench/offline.py
    const js = self.performance && self.performance.memory ? self.performance.memory.usedJSHeapSize : null;
    self.postMessage({ type: "answer", id: message.id, reply: { wasm: heap ? heap.buffer.byteLength : null, js, timings } });
  }
};
