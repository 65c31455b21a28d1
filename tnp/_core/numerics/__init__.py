"""NumPy's arithmetic as XLA computes it: the one cast (``casting``: NumPy's results where
XLA's conversions differ), the one division (``division``: NumPy's quotients bit for bit) and
NumPy's floating-point error flags computed from values (``fperr``).

Pure functions of JAX values, used inside kernels. May import ``settings``, ``rules`` and
``engine``.
"""
