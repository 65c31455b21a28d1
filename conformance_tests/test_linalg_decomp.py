"""numpy.linalg decompositions: eig, eigvals, eigh, eigvalsh, svd, svdvals, qr.

Eigenvectors and singular vectors are defined only up to sign/phase, so they are compared through
invariants (reconstruction, orthogonality) computed the same way on both sides; eigenvalues of
general matrices, which NumPy does not order, are compared as sorted sets."""
import numpy as np
import pytest

import tnp
from engine import assert_same, check
from test_linalg import INEXACT, LINALG_PARAMS, _mT, _result_dtype, _tol, mat, spd


def _recon_tol(dt, a=None):
    """Tolerance for results rebuilt from a factorisation. Their error is LAPACK's backward
    error, relative to the largest element of ``a``, not to each element: for data as large as
    uint32's wrapped values (~4e9) atol grows with it (NumPy's and JAX's LAPACK builds round
    differently there)."""
    tol = 1e-4 if np.dtype(dt).char in "fF" else 1e-9
    if a is not None:
        scale = 8 * a.shape[-1] * np.finfo(dt).eps * float(np.abs(a).max(initial=0))
        return dict(rtol=tol, atol=max(tol, scale))
    return dict(rtol=tol, atol=tol)


@pytest.mark.parametrize("dt", LINALG_PARAMS)
@pytest.mark.parametrize("uplo", ["L", "U", "u"])
def test_eigh(dt, uplo):
    a = spd(dt, (2, 3, 3)) if np.dtype(dt).kind != "b" else mat(dt, (2, 3, 3))
    a = a.copy()
    if np.dtype(dt).kind != "b":
        tri = np.triu_indices(3, 1) if uplo == "L" else np.tril_indices(3, -1)
        a[..., tri[0], tri[1]] = 5  # only one triangle is read

    def body(xp, a):
        w, v = xp.linalg.eigh(a, UPLO=uplo)
        recon = v @ (w[..., :, None].astype(v.dtype) * _mT(xp, v))
        return w, recon, _mT(xp, v) @ v, xp.linalg.eigvalsh(a, uplo)
    check(body, a, **_recon_tol(_result_dtype(dt), a))
    check(lambda xp, a: xp.linalg.eigh(a, UPLO="X"), a)


def _sorted_eigvals(w):
    w = np.asarray(w)
    return np.sort_complex(w) if w.dtype.kind == "c" else np.sort(w, axis=-1)


@pytest.mark.parametrize("dt", LINALG_PARAMS)
def test_eig(dt):
    rot = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 2]])  # complex eigenvalues +-i
    cases = [mat(dt, (2, 3, 3))]
    if np.dtype(dt).kind in "ifc":
        cases += [rot.astype(dt), (mat(dt, (3, 3)) + mat(dt, (3, 3)).T).astype(dt)]
    tol = _recon_tol(_result_dtype(dt))
    for a in cases:
        def body(xp, a):
            w, v = xp.linalg.eig(a)
            return xp.abs(a.astype(v.dtype) @ v - v * w[..., None, :]), w.dtype, v.dtype, w.shape
        check(body, a, **tol)
        w_np, w_tnp = np.linalg.eigvals(a), tnp.linalg.eigvals(tnp.asarray(a))
        assert isinstance(w_tnp, tnp.ndarray)
        # eigenvalues in a canonical order, both sorted on the host
        assert_same(_sorted_eigvals(w_tnp), _sorted_eigvals(w_np), host_ok=True, **tol)
        assert_same(_sorted_eigvals(tnp.linalg.eig(tnp.asarray(a))[0]),
                    _sorted_eigvals(np.linalg.eig(a)[0]), host_ok=True, **tol)


def test_eig_rejects_non_finite():
    a = mat("float64", (3, 3))
    a[1, 1] = np.nan
    check(lambda xp, a: xp.linalg.eig(a), a)
    a[1, 1] = np.inf
    check(lambda xp, a: xp.linalg.eigvals(a), a)


@pytest.mark.parametrize("dt", LINALG_PARAMS)
@pytest.mark.parametrize("shape", [(2, 4, 3), (3, 4)], ids=str)
@pytest.mark.parametrize("full", [True, False])
def test_svd(dt, shape, full):
    a = mat(dt, shape)
    k = min(shape[-2:])

    def body(xp, a):
        u, s, vh = xp.linalg.svd(a, full_matrices=full)
        recon = (u[..., :, :k] * s[..., None, :].astype(u.dtype)) @ vh[..., :k, :]
        return (s, recon, _mT(xp, u) @ u, vh @ _mT(xp, vh), xp.linalg.svdvals(a),
                xp.linalg.svd(a, compute_uv=False))
    check(body, a, **_recon_tol(_result_dtype(dt)))


@pytest.mark.parametrize("dt", INEXACT + [np.dtype("int64")], ids=str)
def test_svd_hermitian(dt):
    a = spd(dt, (2, 3, 3))
    indefinite = (a - 40 * np.eye(3)).astype(dt)

    def body(xp, a):
        u, s, vh = xp.linalg.svd(a, hermitian=True)
        return s, (u * s[..., None, :].astype(u.dtype)) @ vh, xp.linalg.svd(
            a, compute_uv=False, hermitian=True)
    check(body, a, **_recon_tol(_result_dtype(dt)))
    check(body, indefinite, **_recon_tol(_result_dtype(dt)))


@pytest.mark.parametrize("dt", LINALG_PARAMS)
@pytest.mark.parametrize("shape", [(2, 4, 3), (3, 4)], ids=str)
def test_qr(dt, shape):
    a = mat(dt, shape)

    def body(xp, a):
        out = []
        for mode in ("reduced", "complete"):
            q, r = xp.linalg.qr(a, mode=mode)
            # Householder QR is unique up to a phase per row of R: |R| is invariant.
            out += [q @ r, _mT(xp, q) @ q, xp.abs(r), r.dtype]
        out.append(xp.abs(xp.linalg.qr(a, mode="r")))
        return out
    check(body, a, **_recon_tol(_result_dtype(dt)))


def test_qr_raw_and_deprecated_modes():
    a = mat("float64", (4, 3))
    check(lambda xp, a: xp.linalg.qr(a, mode="raw"), a, **_tol("float64"))
    check(lambda xp, a: xp.abs(xp.linalg.qr(a, mode="economic")), a, **_tol("float64"))
    check(lambda xp, a: xp.abs(xp.linalg.qr(a, mode="full")[1]), a, **_tol("float64"))
    check(lambda xp, a: xp.linalg.qr(a, mode="bogus"), a)
    check(lambda xp, a: xp.linalg.qr(a), np.ones(3))
