"""numpy.linalg norms, cond, matrix_rank and the array-API products (multi_dot, outer, cross,
diagonal, trace, matmul, matrix_transpose, vecdot, tensordot)."""
import numpy as np
import pytest

from engine import check, platform_xfail
from strategies import ALL_DTYPES
from test_linalg import INEXACT, LINALG_PARAMS, SINGULAR, _result_dtype, _tol, mat

INF = np.inf
VECTOR_ORDS = [None, 0, 1, 2, -1, -2, INF, -INF, 3, 0.5]
MATRIX_ORDS = [None, "fro", "f", "nuc", 1, -1, 2, -2, INF, -INF]


def _norm_tol(dt):
    dt = np.dtype(dt)
    if dt.kind not in "fc":
        return _tol("float64")
    return dict(rtol=2e-3, atol=1e-3) if dt.char == "e" else dict(
        rtol=2e-5 if dt.char in "fF" else 1e-10, atol=1e-6 if dt.char in "fF" else 1e-10)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_vector_norms(dt):
    a = mat(dt, (2, 3, 3)) if np.dtype(dt).kind != "e" else mat("float64", (2, 3, 3)).astype(dt)
    tol = _norm_tol(dt)

    def body(xp, a):
        out = [xp.linalg.norm(a), xp.linalg.norm(a[0, 0], 2), xp.linalg.norm(a, keepdims=True)]
        for o in VECTOR_ORDS:
            out.append(xp.linalg.norm(a, o, axis=1))
            out.append(xp.linalg.norm(a, o, axis=-1, keepdims=True))
        return out
    check(body, a, **tol)


@pytest.mark.parametrize("dt", LINALG_PARAMS)
def test_matrix_norms(dt):
    a = mat(dt, (2, 3, 3))

    def body(xp, a):
        out = [xp.linalg.norm(a[0], "fro"), xp.linalg.norm(a[0], "nuc")]
        for o in MATRIX_ORDS:
            out.append(xp.linalg.norm(a, o, axis=(1, 2)))
            out.append(xp.linalg.norm(a, o, axis=(2, 0), keepdims=True))
        return out
    check(body, a, **_norm_tol(_result_dtype(dt)))


def test_norm_errors_and_edges():
    a = mat("float64", (2, 3, 3))
    check(lambda xp, a: xp.linalg.norm(a, "fro", axis=0), a)
    check(lambda xp, a: xp.linalg.norm(a, 3, axis=(0, 1)), a)
    check(lambda xp, a: xp.linalg.norm(a, axis=(1, 1)), a)
    check(lambda xp, a: xp.linalg.norm(a, axis=(0, 1, 2)), a)
    check(lambda xp, a: xp.linalg.norm(a, 2), a)
    check(lambda xp, a: xp.linalg.norm(a, axis=1.5), a)
    check(lambda xp, a: xp.linalg.norm(a, axis=3), a)
    check(lambda xp, a: xp.linalg.norm(a, "nuc"), a[0])
    e = np.zeros((0, 3))
    check(lambda xp, a: [xp.linalg.norm(a), xp.linalg.norm(a, INF, axis=0),
                         xp.linalg.norm(a, 1, axis=(0, 1))], e)
    n = a.copy()
    n[0, 1, 1] = np.nan
    n[1, 0, 0] = np.inf
    check(lambda xp, a: [xp.linalg.norm(a, o, axis=2) for o in VECTOR_ORDS], n)


@pytest.mark.parametrize("dt", INEXACT + [np.dtype("int16")], ids=str)
def test_vector_and_matrix_norm(dt):
    a = mat(dt, (2, 3, 3))
    tol = _norm_tol(_result_dtype(dt))

    def body(xp, a):
        out = []
        for axis in (None, 1, -1, (0, 2), (2, 0)):
            for o in (2, 1, INF, -INF, 0, 3):
                out.append(xp.linalg.vector_norm(a, axis=axis, ord=o))
            out.append(xp.linalg.vector_norm(a, axis=axis, keepdims=True))
        for o in ("fro", "nuc", 1, -1, 2, -2, INF, -INF):
            out.append(xp.linalg.matrix_norm(a, ord=o))
            out.append(xp.linalg.matrix_norm(a, ord=o, keepdims=True))
        return out
    check(body, a, **tol)
    check(lambda xp, a: xp.linalg.matrix_norm(a[0, 0]), a)


@pytest.mark.parametrize("dt", LINALG_PARAMS)
def test_cond(dt):
    a = mat(dt, (2, 3, 3))
    tol = _norm_tol(_result_dtype(dt))
    check(lambda xp, a: [xp.linalg.cond(a, p) for p in (None, 2, -2, 1, -1, INF, -INF, "fro",
                                                           "nuc")], a, **tol)


@platform_xfail("the condition number of an exactly singular matrix is 1/(rounding error): "
                "NumPy's is LAPACK's rounding, cuSOLVER's differs")
def test_cond_singular():
    check(lambda xp, a: [xp.linalg.cond(a, p) for p in (None, 1, INF, "fro")], SINGULAR,
          rtol=1e-6)


def test_cond_errors():
    check(lambda xp, a: xp.linalg.cond(a), np.zeros((0, 0)))
    check(lambda xp, a: xp.linalg.cond(a, 1), np.ones((2, 3)))
    check(lambda xp, a: xp.linalg.cond(a, 2), np.ones((2, 3)) + np.eye(2, 3))
    n = mat("float64", (2, 3, 3))
    n[0, 0, 0] = np.nan
    check(lambda xp, a: xp.linalg.cond(a), n)


@pytest.mark.parametrize("dt", LINALG_PARAMS)
def test_matrix_rank(dt):
    a = mat(dt, (2, 3, 3))
    low = np.stack([SINGULAR, np.outer([1, 2, 3], [1, 0, 1])]).astype(dt)
    for x in (a, low):
        check(lambda xp, a: [xp.linalg.matrix_rank(a), xp.linalg.matrix_rank(a, tol=0.5),
                             xp.linalg.matrix_rank(a, rtol=0.3),
                             xp.linalg.matrix_rank(a, tol=np.array([0.1, 100.0])),
                             xp.linalg.matrix_rank(a[0])], x)
    h = (a + np.swapaxes(a, -1, -2)).astype(dt)
    check(lambda xp, a: xp.linalg.matrix_rank(a, hermitian=True), h)
    check(lambda xp, a: [xp.linalg.matrix_rank(a[0, 0]), xp.linalg.matrix_rank(a[0, 0] * 0),
                         xp.linalg.matrix_rank(a[0, 0, 0])], a)
    check(lambda xp, a: xp.linalg.matrix_rank(a, tol=1, rtol=1), a)


# --- products ------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "complex128", "bool"])
def test_multi_dot(dt):
    v, m, r = mat(dt, (3,)), mat(dt, (3, 3)), mat(dt, (3, 4), 1)
    tol = _tol(_result_dtype(dt))
    check(lambda xp, v, m, r: xp.linalg.multi_dot([m, r]), v, m, r, **tol)
    check(lambda xp, v, m, r: xp.linalg.multi_dot([v, m, r]), v, m, r, **tol)
    check(lambda xp, v, m, r: xp.linalg.multi_dot([v, m, m, v]), v, m, r, **tol)
    check(lambda xp, v, m, r: xp.linalg.multi_dot([m, m, r, r.T, v]), v, m, r, **tol)
    check(lambda xp, v, m, r: xp.linalg.multi_dot([m]), v, m, r)
    check(lambda xp, v, m, r: xp.linalg.multi_dot([m, r, m]), v, m, r)
    check(lambda xp, v, m, r: xp.linalg.multi_dot([m[None], m, m]), v, m, r)


def test_multi_dot_out():
    def body(xp, a, b):
        out = xp.zeros((3, 4))
        r = xp.linalg.multi_dot([a, a, b], out=out)
        return r is out, out
    check(body, mat("float64", (3, 3)), mat("float64", (3, 4)), **_tol("float64"))


@pytest.mark.parametrize("dt", ["float32", "int8", "complex64", "bool", "uint16"])
def test_array_api_products(dt):
    a, b = mat(dt, (2, 3, 3)), mat(dt, (2, 3, 3), 1)
    v = mat(dt, (3,))
    tol = _tol(_result_dtype(dt)) if np.dtype(dt).kind in "fc" else {}
    check(lambda xp, v: xp.linalg.outer(v, v), v, **tol)
    check(lambda xp, a: xp.linalg.outer(a, a), a)
    if dt != "bool":
        check(lambda xp, a, b: [xp.linalg.cross(a, b), xp.linalg.cross(a, b, axis=1)], a, b,
              **tol)
    check(lambda xp, a: xp.linalg.cross(a[..., :2], a[..., :2]), a)
    check(lambda xp, a: [xp.linalg.diagonal(a), xp.linalg.diagonal(a, offset=1),
                         xp.linalg.diagonal(a, offset=-2)], a)
    if dt != "bool":
        check(lambda xp, a: [xp.linalg.trace(a), xp.linalg.trace(a, offset=1),
                             xp.linalg.trace(a, dtype=np.float64)], a, **tol)
    check(lambda xp, a, b: xp.linalg.matmul(a, b), a, b, **tol)
    check(lambda xp, a, v: xp.linalg.matmul(a, v), a, v, **tol)
    check(lambda xp, a: xp.linalg.matrix_transpose(a), a)
    check(lambda xp, a, b: [xp.linalg.vecdot(a, b), xp.linalg.vecdot(a, b, axis=0)], a, b,
          **tol)
    check(lambda xp, a, v: xp.linalg.vecdot(a, v), a, v, **tol)
    check(lambda xp, a, b: [xp.linalg.tensordot(a, b), xp.linalg.tensordot(a, b, axes=1),
                            xp.linalg.tensordot(a, b, axes=([0, 2], [2, 0]))], a, b, **tol)


def _nan_eye():
    n = np.eye(3)
    n[1, 1] = np.nan
    return n


def test_svd_failure_on_nan():
    for f in (lambda xp, a: xp.linalg.norm(a, 2), lambda xp, a: xp.linalg.norm(a, "nuc"),
              lambda xp, a: xp.linalg.matrix_norm(a, ord=-2), lambda xp, a: xp.linalg.pinv(a),
              lambda xp, a: xp.linalg.matrix_rank(a), lambda xp, a: xp.linalg.svd(a),
              lambda xp, a: xp.linalg.svdvals(a), lambda xp, a: xp.linalg.norm(a, 1),
              lambda xp, a: xp.linalg.det(a)):
        check(f, _nan_eye())


@platform_xfail("NumPy's Cholesky factor of a NaN matrix is LAPACK's partial one (NaN from the "
                "NaN pivot on); cuSOLVER reports failure and JAX then fills the factor with NaN")
def test_cholesky_of_nan():
    check(lambda xp, a: xp.linalg.cholesky(a), _nan_eye())
