"""tnp's machinery, in layers named for the stages of a call. Bottom to top:

- ``settings``: the one settings object (every ``TNP_*`` variable).
- ``rules``: NumPy's rules, asked of NumPy itself (dtypes and promotion, the probe, errors).
  Pure NumPy: no JAX.
- ``engine``: JAX and XLA: loading JAX, devices, tracing, compiled-kernel caches, lens kernels
  (views as pure functions of a buffer), lazy graphs and their flush, sync accounting.
- ``numerics``: NumPy's arithmetic as XLA computes it (the one cast, division, float-error flags).
- ``array``: the ndarray and its storage: roots, views, indexing, the one write path, flags.
- ``dispatch``: how a call is entered: the normaliser, the placement decision, the front end,
  the host tier, the fallback path, ``np_doc``.
- ``ufunc``: the ufunc object and its methods.
- ``methods``: the array's NumPy face (operators, methods, properties) and the NumPy protocols
  (``__array_ufunc__``, ``__array_function__``).

A module imports from its own layer and the layers below it, never above
(``tests/test_import_graph.py``); a higher layer hands a lower one what it needs by an explicit
registration at import time. ``docs/architecture.md`` walks calls through the layers.
"""
