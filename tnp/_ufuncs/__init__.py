"""NumPy's ufuncs as ``tnp.ufunc`` objects: the declarative table of their loops (``table``),
the complex loops with C99 Annex G special values (``complex_special``) and the ``axes=``/
``keepdims=`` handling of the generalized ufuncs (``gufunc_axes``).

Above ``tnp._core`` (the ufunc machinery these fill in) and below ``tnp._routines`` (which
call the ufuncs); ``tnp/__init__`` exports ``table.__all__``.
"""
