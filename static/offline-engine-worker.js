/* 牌局 Paiju's engine in the phone (offline mode, issue 29): a module worker, served at /offline-engine/worker.js
   with a Content-Security-Policy that lets it compile WebAssembly (webapp/pwa.py). It loads Pyodide from
   Paiju's own address, unpacks the repo's scoring/ package (the same code the server runs) and the page glue
   (webapp/offline_page.py, imported as paiju_offline), and answers the page's forms with the engine's answer.

   The page sends {type: "load", manifest} once, then {type: "answer", id, slug, action, pairs, lang};
   it gets {type: "ready"} or {type: "failed", message}, and {type: "answer", id, reply} for each form. */
let answerJson = null;

async function load(manifest) {
  const { loadPyodide } = await import(manifest.runtime + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: manifest.runtime, packages: [] });
  const [engine, page] = await Promise.all([fetchOk(manifest.engine), fetchOk(manifest.page)]);
  pyodide.unpackArchive(await engine.arrayBuffer(), "zip", { extractDir: "/home/pyodide/paiju" });
  pyodide.FS.writeFile("/home/pyodide/paiju/paiju_offline.py", await page.text());
  pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/paiju')\nimport paiju_offline");
  answerJson = pyodide.pyimport("paiju_offline").answer_json;
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ": " + response.status);
  return response;
}

self.onmessage = async (event) => {
  const message = event.data || {};
  if (message.type === "load") {
    try {
      await load(message.manifest);
      self.postMessage({ type: "ready" });
    } catch (error) {
      self.postMessage({ type: "failed", message: String(error && error.message || error) });
    }
  } else if (message.type === "answer") {
    let reply;
    try {
      reply = JSON.parse(answerJson(message.slug, message.action, JSON.stringify(message.pairs), message.lang));
    } catch (error) {
      reply = { failed: String(error && error.message || error) };
    }
    self.postMessage({ type: "answer", id: message.id, reply });
  }
};
