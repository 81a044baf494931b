// The floor of make bench-boot: the game's own vendored Pyodide, booted bare, with the standard
// library Pyodide ships (python_stdlib.zip beside this file, which bench/boot.py copies from
// node_modules/pyodide/): the page's own stdlib is trimmed and compiled by the setup step, one
// of the game's start-up measures, so the floor must not have it.
// window.__floor.ready is performance.now() (ms since navigation start) once 1+1 returned.
import { loadPyodide } from "../../static/vendor/pyodide/pyodide.mjs";

window.__floor = { ready: null, result: null, error: null };
try {
  const pyodide = await loadPyodide({
    stdLibURL: new URL("./python_stdlib.zip", import.meta.url).href,
  });
  const result = pyodide.runPython("1+1");
  window.__floor.ready = performance.now();
  window.__floor.result = result;
  document.getElementById("out").textContent = `1+1 = ${result}`;
} catch (error) {
  window.__floor.error = String(error);
  document.getElementById("out").textContent = `boot failed: ${error}`;
}
