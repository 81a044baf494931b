"""The browser adapter: the only modules that import ``js``, ``pyscript`` or ``pyodide``; the
composition root (:mod:`.root`) wires the rest."""
