"""tnp's routines, one module per family of NumPy's reference documentation, and where each
public name of ``tnp`` is defined.

Every module here defines ``__all__``. ``import tnp`` imports none of them: ``FAMILIES`` names
each family module (and ``tnp._ufuncs.table``, the ufuncs) with the names it exports, and
``tnp/__init__``'s module ``__getattr__`` imports a family at the first use of one of its names
(``tnp.sort`` imports ``tnp._routines.sorting``). A new family is a new file and its entry
here; ``tests/test_startup.py`` checks the table against each module's ``__all__``.
"""
# family module (relative to ``tnp``) -> the names it exports (its ``__all__``)
FAMILIES = {
    "_ufuncs.table": (
        "abs", "absolute", "acos", "acosh", "add", "arccos", "arccosh", "arcsin", "arcsinh",
        "arctan", "arctan2", "arctanh", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
        "bitwise_count", "bitwise_invert", "bitwise_left_shift", "bitwise_not", "bitwise_or",
        "bitwise_right_shift", "bitwise_xor", "cbrt", "ceil", "conj", "conjugate", "copysign",
        "cos", "cosh", "deg2rad", "degrees", "divide", "divmod", "equal", "exp", "exp2", "expm1",
        "fabs", "float_power", "floor", "floor_divide", "fmax", "fmin", "fmod", "frexp", "gcd",
        "greater", "greater_equal", "heaviside", "hypot", "invert", "isfinite", "isinf", "isnan",
        "isnat", "lcm", "ldexp", "left_shift", "less", "less_equal", "log", "log10", "log1p",
        "log2", "logaddexp", "logaddexp2", "logical_and", "logical_not", "logical_or",
        "logical_xor", "matmul", "matvec", "maximum", "minimum", "mod", "modf", "multiply",
        "negative", "nextafter", "not_equal", "positive", "pow", "power", "rad2deg", "radians",
        "reciprocal", "remainder", "right_shift", "rint", "sign", "signbit", "sin", "sinh",
        "spacing", "sqrt", "square", "subtract", "tan", "tanh", "true_divide", "trunc", "vecdot",
        "vecmat"
    ),
    "_routines.array_api_info": (
        "__array_api_version__", "__array_namespace_info__"
    ),
    "_routines.array_props": (
        "isfortran", "iterable", "ndim", "shape", "size"
    ),
    "_routines.bits": (
        "packbits", "unpackbits"
    ),
    "_routines.broadcasting": (
        "broadcast", "broadcast_arrays", "broadcast_shapes", "broadcast_to"
    ),
    "_routines.creation": (
        "arange", "array", "asanyarray", "asarray", "ascontiguousarray", "asfortranarray",
        "astype", "copy", "empty", "empty_like", "full", "full_like", "ones", "ones_like",
        "zeros", "zeros_like"
    ),
    "_routines.dtype_routines": (
        "can_cast", "common_type", "dtype", "finfo", "iinfo", "isdtype", "issubdtype",
        "min_scalar_type", "mintypecode", "promote_types", "result_type", "typename"
    ),
    "_routines.errstate": (
        "errstate", "geterr", "geterrcall", "seterr", "seterrcall"
    ),
    "_routines.flips_and_splits": (
        "array_split", "atleast_1d", "atleast_2d", "atleast_3d", "diagonal", "dsplit", "flip",
        "fliplr", "flipud", "hsplit", "may_share_memory", "shares_memory", "split", "vsplit"
    ),
    "_routines.fromdata": (
        "asarray_chkfinite", "from_dlpack", "frombuffer", "fromfunction", "fromiter",
        "fromstring", "require"
    ),
    "_routines.functional": (
        "apply_along_axis", "apply_over_axes", "frompyfunc", "vectorize"
    ),
    "_routines.grids": (
        "indices", "ix_", "meshgrid", "mgrid", "ogrid"
    ),
    "_routines.histograms": (
        "bincount", "digitize", "histogram", "histogram2d", "histogram_bin_edges", "histogramdd"
    ),
    "_routines.index_tricks": (
        "c_", "diag_indices", "diag_indices_from", "index_exp", "mask_indices", "r_",
        "ravel_multi_index", "s_", "tril_indices", "tril_indices_from", "triu_indices",
        "triu_indices_from", "unravel_index"
    ),
    "_routines.inserting": (
        "copyto", "fill_diagonal", "place", "put", "put_along_axis", "putmask"
    ),
    "_routines.io": (
        "fromfile", "fromregex", "genfromtxt", "load", "loadtxt", "save", "savetxt", "savez",
        "savez_compressed"
    ),
    "_routines.iteration": (
        "ndenumerate", "ndindex", "nditer"
    ),
    "_routines.joining": (
        "append", "block", "column_stack", "concat", "concatenate", "delete", "dstack", "hstack",
        "insert", "pad", "repeat", "resize", "roll", "rollaxis", "rot90", "row_stack", "stack",
        "tile", "trim_zeros", "unstack", "vstack"
    ),
    "_routines.logic": (
        "all", "allclose", "any", "array_equal", "array_equiv", "isclose", "iscomplex",
        "iscomplexobj", "isneginf", "isposinf", "isreal", "isrealobj", "isscalar", "real_if_close"
    ),
    "_routines.math_routines": (
        "angle", "around", "clip", "convolve", "correlate", "diff", "ediff1d", "fix", "gradient",
        "i0", "imag", "interp", "nan_to_num", "real", "round", "sinc", "trapezoid", "unwrap"
    ),
    "_routines.matrices": (
        "diag", "diagflat", "eye", "identity", "tri", "tril", "triu", "vander"
    ),
    "_routines.nanfunctions": (
        "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmedian",
        "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar"
    ),
    "_routines.polynomial": (
        "poly", "poly1d", "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul",
        "polysub", "polyval", "roots"
    ),
    "_routines.printing": (
        "array2string", "array_repr", "array_str", "base_repr", "binary_repr",
        "format_float_positional", "format_float_scientific", "get_printoptions", "printoptions",
        "set_printoptions"
    ),
    "_routines.products": (
        "cross", "dot", "einsum", "einsum_path", "inner", "kron", "outer", "tensordot", "trace",
        "vdot"
    ),
    "_routines.ranges": (
        "geomspace", "linspace", "logspace"
    ),
    "_routines.reductions": (
        "amax", "amin", "argmax", "argmin", "count_nonzero", "cumprod", "cumsum",
        "cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "ptp", "std", "sum",
        "var"
    ),
    "_routines.reshaping": (
        "expand_dims", "matrix_transpose", "moveaxis", "permute_dims", "ravel", "reshape",
        "squeeze", "swapaxes", "transpose"
    ),
    "_routines.searching": (
        "argwhere", "choose", "compress", "extract", "flatnonzero", "nonzero", "piecewise",
        "searchsorted", "select", "take", "take_along_axis", "where"
    ),
    "_routines.sets": (
        "intersect1d", "isin", "setdiff1d", "setxor1d", "union1d", "unique", "unique_all",
        "unique_counts", "unique_inverse", "unique_values"
    ),
    "_routines.sorting": (
        "argpartition", "argsort", "lexsort", "partition", "sort", "sort_complex"
    ),
    "_routines.statistics": (
        "average", "corrcoef", "cov", "median", "percentile", "quantile"
    ),
    "_routines.window": (
        "bartlett", "blackman", "hamming", "hanning", "kaiser"
    ),
}

# name -> its family module
OWNER = {name: module for module, names in FAMILIES.items() for name in names}

