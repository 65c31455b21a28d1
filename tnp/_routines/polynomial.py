"""The legacy polynomial API: poly, roots, polyval, polyadd, polysub, polymul, polydiv, polyder,
polyint, polyfit and the ``poly1d`` class, following NumPy's own algorithms step by step.

Sync points (documented): ``roots`` (leading/trailing zeros and whether the eigenvalues are real
decide its shape and dtype), ``poly`` of complex roots (real result when the roots come in
conjugate pairs), ``polydiv`` (trimming of the remainder), ``polyfit`` (the rank decides the
residuals) and printing a ``poly1d``.
"""
import typing
import warnings

from .._core.engine.jaxload import jax, jit, jnp
import numpy as np

from .._core.rules import probe
from .._core.numerics.casting import cast, numpy_cast
from .._core.array.ndarray import ndarray
from .._core.dispatch.normalize import ArrayLike, normalize, to_jax
from .._core.dispatch.np_doc import np_doc
from .creation import asarray
from .math_routines import convolve

__all__ = ["poly", "roots", "polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder",
           "polyint", "polyfit", "poly1d"]


def _host(x):
    return np.asarray(x)


@np_doc(np.poly, notes="Sync point for complex roots: the result is real when they pair up.")
def poly(seq_of_zeros):
    if np.shape(seq_of_zeros) == (0,):
        return 1.0
    return _poly(seq_of_zeros)


@normalize(jit=False)
def _poly(seq_of_zeros: ArrayLike):
    seq = jnp.atleast_1d(seq_of_zeros)
    sh = seq.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        seq = jnp.linalg.eigvals(seq)
    elif len(sh) == 1:
        probe.call(np.poly, probe.like(seq))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    dt = (probe.dtype_of(np.poly, probe.Spec((1,), seq.dtype)) if seq.dtype.kind != "c"
          else seq.dtype)
    a = _poly_coeffs(cast(seq, dt))
    if dt.kind == "c":
        r = _host(seq)
        pos = np.sort_complex(r[r.imag > 0])
        neg = np.sort_complex(np.conjugate(r[r.imag < 0]))
        if len(pos) == len(neg) and np.all(neg == pos):
            a = a.real
    return a


@jit
def _poly_coeffs(seq):
    def step(a, z):
        shifted = jnp.concatenate([jnp.zeros((1,), a.dtype), a[:-1]])
        return a - z * shifted, None
    a0 = jnp.zeros((seq.shape[0] + 1,), seq.dtype).at[0].set(1)
    return jax.lax.scan(step, a0, seq)[0]


@np_doc(np.roots, notes="Sync point: zeros and real eigenvalues decide the result's shape/dtype.")
@normalize(jit=False)
def roots(p: ArrayLike):
    p = jnp.atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = np.nonzero(_host(p))[0]
    if len(nz) == 0:
        return jnp.zeros((0,), probe.dtype_of(np.roots, probe.Spec((1,), p.dtype)))
    trailing = len(p) - nz[-1] - 1
    p = p[int(nz[0]):int(nz[-1]) + 1]
    if p.dtype.kind not in "fc":
        p = cast(p, np.float64)
    n = len(p)
    if n > 1:
        a = jnp.diag(jnp.ones((n - 2,), p.dtype), -1)
        a = a.at[0, :].set(-p[1:] / p[0])
        r = jnp.linalg.eigvals(a)
        if p.dtype.kind != "c" and not np.any(_host(r.imag)):
            r = r.real
    else:
        r = jnp.zeros((0,), p.dtype)
    return jnp.concatenate([r, jnp.zeros((trailing,), r.dtype)])


def _poly1d_as_numpy(numpy_fn):
    """What the host tier runs in NumPy's ``numpy_fn``'s place: NumPy's function with tnp's
    ``poly1d`` arguments as NumPy's (NumPy's functions check for their own class) and NumPy's
    ``poly1d`` results as tnp's."""
    def to_tnp(r):
        return poly1d(r.coeffs, variable=r.variable) if isinstance(r, np.poly1d) else r

    def run(*args, **kwargs):
        args = [np.poly1d(np.asarray(a.coeffs), variable=a.variable)
                if isinstance(a, poly1d) else a for a in args]
        r = numpy_fn(*args, **kwargs)
        return tuple(map(to_tnp, r)) if type(r) is tuple else to_tnp(r)
    return run


@np_doc(np.polyval, host_fn=_poly1d_as_numpy(np.polyval))
def polyval(p, x):
    if isinstance(x, poly1d):
        y = poly1d(0)
        for pv in asarray(p):
            y = y * x + pv
        return y
    return _polyval(p, x)


@normalize
def _polyval(p: ArrayLike, x: ArrayLike):
    dt = probe.dtype_of(np.polyval, probe.unit(p), probe.unit(x))
    if p.ndim == 0 or p.shape[0] == 0:
        probe.call(np.polyval, probe.like(p), probe.like(x))
        return jnp.zeros(x.shape, dt)
    xt = numpy_cast(x, dt)

    def step(y, pv):
        return y * xt + numpy_cast(pv, dt), None
    return jax.lax.scan(step, jnp.zeros(x.shape, dt), p)[0]


def _coeffs_of(a):
    return a.coeffs if isinstance(a, poly1d) else a


def _addsub(a1, a2, sub):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    r = _addsub_kernel(_coeffs_of(a1), _coeffs_of(a2), sub)
    return poly1d(r) if truepoly else r


@normalize
def _addsub_kernel(a1: ArrayLike, a2: ArrayLike, sub):
    a1, a2 = jnp.atleast_1d(a1), jnp.atleast_1d(a2)
    dt = probe.dtype_of(np.subtract if sub else np.add, probe.Spec((1,), a1.dtype),
                        probe.Spec((1,), a2.dtype))
    d = a2.shape[0] - a1.shape[0]
    if d > 0:
        a1 = jnp.concatenate([jnp.zeros((d,), a1.dtype), a1])
    elif d < 0:
        a2 = jnp.concatenate([jnp.zeros((-d,), a2.dtype), a2])
    a1, a2 = numpy_cast(a1, dt), numpy_cast(a2, dt)
    return a1 - a2 if sub else (a1 | a2 if dt.kind == "b" else a1 + a2)


@np_doc(np.polyadd, host_fn=_poly1d_as_numpy(np.polyadd))
def polyadd(a1, a2):
    return _addsub(a1, a2, False)


@np_doc(np.polysub, host_fn=_poly1d_as_numpy(np.polysub))
def polysub(a1, a2):
    return _addsub(a1, a2, True)


@np_doc(np.polymul, notes="Sync point: leading zero coefficients are stripped, as NumPy does.",
        host_fn=_poly1d_as_numpy(np.polymul))
def polymul(a1, a2):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    r = convolve(poly1d(a1).coeffs, poly1d(a2).coeffs)  # NumPy strips leading zeros first
    return poly1d(r) if truepoly else r


@np_doc(np.polydiv, notes="Sync point: the remainder's leading near-zeros are trimmed.",
        host_fn=_poly1d_as_numpy(np.polydiv))
def polydiv(u, v):
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    q, r = _polydiv(_coeffs_of(u), _coeffs_of(v))
    rh = np.asarray(r)
    k = 0
    while np.allclose(rh[k], 0, rtol=1e-14) and rh.shape[-1] - k > 1:
        k += 1
    r = r[k:]
    return (poly1d(q), poly1d(r)) if truepoly else (q, r)


def _div_dtype(u, v):
    """NumPy's polydiv works in the dtype of ``(u + 0.0)[0] + (v + 0.0)[0]``."""
    return (u + 0.0)[0] + (v + 0.0)[0]


@normalize
def _polydiv(u: ArrayLike, v: ArrayLike):
    u, v = jnp.atleast_1d(u), jnp.atleast_1d(v)
    wt = probe.dtype_of(_div_dtype, probe.Spec((1,), u.dtype), probe.Spec((1,), v.dtype))
    u, v = numpy_cast(u, wt), numpy_cast(v, wt)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = jnp.zeros((max(m - n + 1, 1),), wt)
    r = u
    for k in range(0, m - n + 1):
        d = scale * r[k]
        q = q.at[k].set(d)
        r = r.at[k:k + n + 1].add(-d * v)
    return q, r


@np_doc(np.polyder, host_fn=_poly1d_as_numpy(np.polyder))
def polyder(p, m=1):
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    r = _polyder(_coeffs_of(p), m)
    return poly1d(r) if truepoly else r


@normalize
def _polyder(p: ArrayLike, m):
    for _ in range(m):
        n = p.shape[0] - 1
        dt = np.result_type(p.dtype, np.int64)
        p = numpy_cast(p[:-1], dt) * numpy_cast(jnp.arange(n, 0, -1, dtype=np.int64), dt)
    return p


@np_doc(np.polyint, host_fn=_poly1d_as_numpy(np.polyint))
def polyint(p, m=1, k=None):
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = np.zeros(m, float)
    k = np.atleast_1d(np.asarray(k) if not isinstance(k, ndarray) else k.__array__())
    if len(k) == 1 and m > 1:
        k = k[0] * np.ones(m, float)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    r = _polyint(_coeffs_of(p), m, k)
    return poly1d(r) if truepoly else r


@normalize
def _polyint(p: ArrayLike, m, k: ArrayLike):
    for i in range(m):
        qt = np.result_type(p.dtype, np.int64)
        qt = np.dtype(np.float64) if qt.kind in "biu" else qt
        dt = np.result_type(qt, k.dtype)
        q = numpy_cast(p, qt) / numpy_cast(jnp.arange(p.shape[0], 0, -1), qt)
        p = jnp.concatenate([numpy_cast(q, dt),
                             numpy_cast(k[i:i + 1], dt)])
    return p


@np_doc(np.polyfit, notes="Sync point: the rank of the least-squares problem (residuals, "
                          "RankWarning).")
def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    order = int(deg) + 1
    x, y = asarray(x), asarray(y)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if w is not None:
        w = asarray(w)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
    if rcond is None:
        rcond = len(x) * np.finfo(np.result_type(x.dtype, 0.0)).eps
    c, resids, rank, s, lhs, scale = _polyfit_core(x, y, order, float(rcond), w)
    rank = int(rank)
    if rank == order and x.shape[0] > order:
        resids = _resids(lhs, c, y, w, scale)
    else:
        resids = asarray(np.zeros((0,), resids.dtype))
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, asarray(np.int32(rank)), s, rcond
    if cov:
        vbase = _vbase(lhs, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError("the number of data points must exceed order to scale the "
                                 "covariance matrix")
            fac = resids / (len(x) - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c


@normalize
def _polyfit_core(x: ArrayLike, y: ArrayLike, order, rcond, w: typing.Optional[ArrayLike]):
    x, y = x + 0.0, y + 0.0
    lhs = jnp.vander(numpy_cast(x, np.promote_types(x.dtype, np.int64)), order)  # NumPy's vander
    rhs = y
    if w is not None:
        w = w + 0.0
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = jnp.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    dt = jnp.result_type(lhs, rhs)
    c, resids, rank, s = jnp.linalg.lstsq(numpy_cast(lhs, dt), numpy_cast(rhs, dt), rcond=rcond)
    c = (c.T / scale).T
    return c, resids, rank, s, lhs, scale


@normalize
def _resids(lhs: ArrayLike, c: ArrayLike, y: ArrayLike, w: typing.Optional[ArrayLike],
            scale: ArrayLike):
    rhs = y + 0.0
    if w is not None:
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    coef = (c.T * scale).T
    lhs = numpy_cast(lhs, coef.dtype)
    d = jnp.abs(rhs - jnp.dot(lhs, coef, precision=jax.lax.Precision.HIGHEST)) ** 2
    return jnp.atleast_1d(d.sum(axis=0))


@normalize
def _vbase(lhs: ArrayLike, scale: ArrayLike):
    hp = jax.lax.Precision.HIGHEST
    return jnp.linalg.inv(jnp.dot(lhs.T, lhs, precision=hp)) / jnp.outer(scale, scale)


class poly1d:
    """A one-dimensional polynomial (NumPy's ``poly1d``) with coefficients on the device."""
    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = asarray(c_or_r)
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = c.reshape(-1) if c.ndim == 0 else c
        nz = np.nonzero(np.asarray(c))[0]
        c = c[int(nz[0]):] if len(nz) else asarray(np.zeros((1,), c.dtype))
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    coef = coefficients = c = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return len(self._coeffs) - 1

    o = order

    @property
    def roots(self):
        return roots(self._coeffs)

    r = roots

    def __array__(self, t=None, copy=None):
        a = self._coeffs.__array__()
        return a if t is None else a.astype(t)

    def _numpy(self):
        return np.poly1d(self._coeffs.__array__(), variable=self._variable)

    def __repr__(self):
        return repr(self._numpy())

    def __str__(self):
        return str(self._numpy())

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other):
        if np.isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(poly1d(other)._coeffs, self._coeffs))

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = asarray([1])
        for _ in range(val):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if np.isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return ndarray._wrap(jnp.all(self._coeffs.data == other._coeffs.data))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        ind = self.order - val
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[ind]

    def __setitem__(self, key, val):
        ind = self.order - key
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            zr = asarray(np.zeros(key - self.order, self._coeffs.dtype))
            self._coeffs = asarray(jnp.concatenate([to_jax(zr), to_jax(self._coeffs)]))
            ind = 0
        self._coeffs[ind] = val

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        return poly1d(polyder(self._coeffs, m=m))


np_doc(np.poly1d)(poly1d)
