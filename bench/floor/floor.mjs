// The floor of make bench-boot and make lighthouse: the game's own vendored Pyodide, booted
// bare, from the very files the game loads (static/vendor/pyodide/: the wasm, and the standard
// library the setup step trims and compiles to bytecode), so a ratio over it is the game's own
// cost over the runtime it really runs.
// window.__floor.ready is performance.now() (ms since navigation start) once 1+1 returned.
import { loadPyodide } from "../../static/vendor/pyodide/pyodide.mjs";

window.__floor = { ready: null, result: null, error: null };
try {
  const pyodide = await loadPyodide();
  const result = pyodide.runPython("1+1");
  window.__floor.ready = performance.now();
  window.__floor.result = result;
  document.getElementById("out").textContent = `1+1 = ${result}`;
} catch (error) {
  window.__floor.error = String(error);
  document.getElementById("out").textContent = `boot failed: ${error}`;
}
