"""tnp._core.array: the ndarray and its storage.

What the layer owns: the ``ndarray`` class and what an array *is* (``ndarray``: a root owning a
buffer, or a view of a root through lenses; its value, host copy and attributes), root buffers
and their locks (``roots``), index parsing (``indexing``), the one write path and the lock
protocol (``write``), layout flags and ``flat`` (``flags``), a new array of a subclass's class
(``subclasses``), and the door to storage (``storage`` and the functions named below).

What it may import: ``settings``, ``rules``, ``engine`` and ``numerics``; never ``dispatch`` or
any layer above it (``tests/test_import_graph.py``). Its NumPy face (operators, methods) is
attached from above by ``tnp._core.methods``.

**One door to storage.** Only this layer (``ndarray``, ``write``) and the engine's flush
(``lazygraph.store``: a computed value in place of the pending node a root holds, or a lazily
recorded write's node) assign an array's buffer
(``_buf``), and no module outside this layer and the engine (below it, so it cannot use the
door: the lazy engine's node bookkeeping, ``devices.place`` keeping a result's scalar mark)
assigns any of an ndarray's slots (``_base``, ``_lens``, ``_dyn``, ``_shape``, ``_dtype``,
``_version``, ``_writeable``, ``_scalar``, ``_rshape``, ``_hview``, ...). Everything else goes
through the door, these named functions (``tests/test_import_graph.py`` checks the rule):

- making arrays: ``ndarray._wrap`` (a root owning a ``jax.Array``), ``ndarray._wrap_host``
  (a host-tier root), ``ndarray._view`` / ``ndarray._host_view`` (views), ``ndarray._as_array``
  (a 0-d result as a real array);
- changing a buffer (``write``): ``assign`` (the one write path), ``writing`` (a host root
  written by NumPy under its lock), ``to_device``, ``replace_root``, ``reshape_host``,
  ``rebind_pending`` (a lazily recorded write); and, for ``tnp_ext`` through ``tnp._core.api``,
  the lock protocol ``hold``, ``swap``, ``claim``, ``commit``, ``unclaim``;
- changing attributes (``storage``): ``mark_scalar``, ``scalar_like`` (whether a 0-d array
  stands for a NumPy scalar), ``set_writeable``, ``reshape_view`` (``a.shape = ...`` on a view);
  and ``flags.mark_order`` (a root's memory order).
"""
