"""The browser adapter: the only modules that import ``js``, ``pyscript`` or ``pyodide``.

The composition root (:mod:`.root`) wires input, the session, storage, the view and the
actuator.
"""
