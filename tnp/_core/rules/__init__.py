"""NumPy's rules, asked of NumPy itself: which dtypes tnp holds and NumPy's promotion
(``dtypes``), NumPy run on data-free placeholders for a call's result dtype, shape and error
(``probe``), and tnp's own exception classes (``errors``).

The bottom of ``tnp._core`` but for ``settings``: pure NumPy, no JAX, imports nothing from
tnp. Every layer above asks these; nothing here decides a dtype or an error by itself.
"""
