"""How a call is entered. The one normaliser (``normalize``: array-likes, dtypes, axes,
``out=``, ``where=`` in canonical form), the one placement decision (``tiers``: which tier a
new array lives on), the one front end (``frontend``: every public function's entry, the
host-or-device sequence, NumPy's errors for calls that fail inside JAX), the host tier
(``host``: NumPy's own function for inputs on the host; ``host_threads`` and ``host_pieces``:
large host arrays over every core), the one fallback path for names tnp
lacks (``fallback``) and ``np_doc`` (a function's entry, docstring and registration).

May import every layer below it (``settings``, ``rules``, ``engine``, ``numerics``, ``array``);
the ufunc object and the array's methods above it call ``frontend.host_or_device``.
"""
