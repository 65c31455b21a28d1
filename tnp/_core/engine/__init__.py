"""The engine: JAX and XLA. Loading JAX on first use (``jaxload``) and configuring it
(``jaxconfig``), devices (``devices``), whether a JAX trace is active (``tracing``), the bounded
tables of compiled kernels (``caches``), views as pure functions of a buffer with one jitted
kernel per lens chain (``lenses``), lazy graphs and their flush (``lazy``), the floating-point
warning flags of flushed graphs and their delivery (``fpcheck``), tiered execution
(``tiering``: cold computations on the NumPy tier, ``interpreter*``; the cost rule and stable
keys, ``tiercost``; the persistent compilation cache and its index, ``compilecache``), and the
accounting of sync points and flushes (``syncs``).

May import ``settings`` and ``rules``; knows nothing of the ndarray class, the front end or
the ufuncs. The lazy flush is the one place outside the array layer that assigns an array's
buffer (it fills in the roots whose values it computed).
"""
