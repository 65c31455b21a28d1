"""tnp arrays through the libraries NumPy users combine it with: SciPy, pandas, matplotlib and
scikit-learn. Each call is made twice, once with tnp arrays and once with the same data as NumPy
arrays, and the results are compared (NumPy's run is the oracle).

These libraries read a tnp array through ``__array__`` (a copy to the host, a named sync point)
and return NumPy arrays or their own types; ``tnp.asarray`` brings a result back onto the device.
Where a library refuses tnp arrays, the test shows the workaround the README documents:
``numpy.asarray(a)`` (or ``a.__array__()``) before the call."""
import numpy
import pytest

import tnp

scipy = pytest.importorskip("scipy", reason="the test extra installs SciPy")
pd = pytest.importorskip("pandas", reason="the test extra installs pandas")
matplotlib = pytest.importorskip("matplotlib", reason="the test extra installs matplotlib")
sklearn = pytest.importorskip("sklearn", reason="the test extra installs scikit-learn")

import scipy.linalg  # noqa: E402
import scipy.optimize  # noqa: E402
import scipy.signal  # noqa: E402

RNG = numpy.random.default_rng(1234)


def _same(actual, expected, rtol=1e-12, atol=1e-14):
    numpy.testing.assert_allclose(numpy.asarray(actual), numpy.asarray(expected), rtol=rtol,
                                  atol=atol)


# ---- SciPy -------------------------------------------------------------------------------------
def _rosenbrock(xp):
    def f(x):
        x = xp.asarray(x)
        return (100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()
    return f


@pytest.mark.parametrize("method", ["BFGS", "Nelder-Mead"])
def test_scipy_minimize_with_a_tnp_objective(method):
    x0 = numpy.array([-1.2, 1.0, 0.5, 0.8])
    got = scipy.optimize.minimize(_rosenbrock(tnp), tnp.asarray(x0), method=method,
                                  options={"maxiter": 200})
    want = scipy.optimize.minimize(_rosenbrock(numpy), x0, method=method,
                                   options={"maxiter": 200})
    assert got.nit == want.nit and got.nfev == want.nfev
    _same(got.x, want.x, rtol=1e-9, atol=1e-12)
    _same(got.fun, want.fun, rtol=1e-9, atol=1e-15)


def test_scipy_minimize_with_a_tnp_gradient():
    import tnp_ext
    f = _rosenbrock(tnp)
    grad = tnp_ext.grad(f)
    x0 = numpy.array([-1.2, 1.0, 0.5])

    def np_grad(x):  # the analytic gradient, in NumPy
        g = numpy.zeros_like(x)
        g[:-1] = -400.0 * x[:-1] * (x[1:] - x[:-1] ** 2) - 2 * (1 - x[:-1])
        g[1:] += 200.0 * (x[1:] - x[:-1] ** 2)
        return g
    got = scipy.optimize.minimize(f, x0, jac=lambda x: numpy.asarray(grad(tnp.asarray(x))),
                                  method="BFGS")
    want = scipy.optimize.minimize(_rosenbrock(numpy), x0, jac=np_grad, method="BFGS")
    assert got.success and want.success
    _same(got.x, want.x, rtol=1e-7, atol=1e-9)


def test_scipy_linalg():
    a = RNG.standard_normal((5, 5)) + 5 * numpy.eye(5)
    b = RNG.standard_normal((5, 2))
    spd = a @ a.T
    ta, tb, tspd = tnp.asarray(a), tnp.asarray(b), tnp.asarray(spd)
    _same(scipy.linalg.solve(ta, tb), scipy.linalg.solve(a, b))
    lu_t, lu_n = scipy.linalg.lu_factor(ta), scipy.linalg.lu_factor(a)
    _same(lu_t[0], lu_n[0])
    assert (lu_t[1] == lu_n[1]).all()
    _same(scipy.linalg.lu_solve(lu_t, tb), scipy.linalg.lu_solve(lu_n, b))
    _same(scipy.linalg.cholesky(tspd, lower=True), scipy.linalg.cholesky(spd, lower=True))
    _same(scipy.linalg.expm(ta * 0.1), scipy.linalg.expm(a * 0.1))
    _same(scipy.linalg.svdvals(ta), scipy.linalg.svdvals(a))
    # a SciPy result back on the device
    back = tnp.asarray(scipy.linalg.inv(ta))
    assert isinstance(back, tnp.ndarray) and back.dtype == numpy.float64
    _same(back, scipy.linalg.inv(a))


def test_scipy_signal():
    x = RNG.standard_normal(200)
    h = numpy.hanning(9)
    tx, th = tnp.asarray(x), tnp.asarray(h)
    _same(scipy.signal.convolve(tx, th, mode="same"), scipy.signal.convolve(x, h, mode="same"))
    b, a = scipy.signal.butter(4, 0.2)
    _same(scipy.signal.lfilter(tnp.asarray(b), tnp.asarray(a), tx), scipy.signal.lfilter(b, a, x))
    _same(scipy.signal.filtfilt(b, a, tx), scipy.signal.filtfilt(b, a, x))
    f_t, p_t = scipy.signal.welch(tx, nperseg=64)
    f_n, p_n = scipy.signal.welch(x, nperseg=64)
    _same(f_t, f_n)
    _same(p_t, p_n)


# ---- pandas ------------------------------------------------------------------------------------
def test_pandas_dataframe_round_trip():
    data = RNG.standard_normal((6, 3))
    got = pd.DataFrame(tnp.asarray(data), columns=list("abc"))
    want = pd.DataFrame(data, columns=list("abc"))
    pd.testing.assert_frame_equal(got, want)
    pd.testing.assert_series_equal(got.mean(), want.mean())
    pd.testing.assert_series_equal(pd.Series(tnp.asarray(data[:, 0])), pd.Series(data[:, 0]))
    back = tnp.asarray(got.to_numpy())
    assert isinstance(back, tnp.ndarray) and back.dtype == want.to_numpy().dtype
    _same(back, want.to_numpy(), rtol=0, atol=0)
    # a column as a tnp array, computed on, and stored back
    col = tnp.asarray(got["b"].to_numpy())
    got["d"] = tnp.cumsum(col * 2)
    want["d"] = numpy.cumsum(want["b"].to_numpy() * 2)
    pd.testing.assert_frame_equal(got, want)


def test_pandas_integer_and_bool_columns_keep_their_dtypes():
    ints = numpy.arange(12, dtype=numpy.int32).reshape(4, 3)
    pd.testing.assert_frame_equal(pd.DataFrame(tnp.asarray(ints)), pd.DataFrame(ints))
    mask = ints % 2 == 0
    pd.testing.assert_frame_equal(pd.DataFrame(tnp.asarray(mask)), pd.DataFrame(mask))


# ---- matplotlib --------------------------------------------------------------------------------
def _figure(xp, path):
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    x = xp.linspace(0, 2 * numpy.pi, 50)
    fig, ax = plt.subplots(figsize=(3, 2), dpi=50)
    (line,) = ax.plot(x, xp.sin(x))
    ax.scatter(x[::5], xp.cos(x[::5]))
    ax.imshow(xp.outer(xp.arange(4.0), xp.arange(3.0)), extent=(0, 1, 0, 1))
    fig.savefig(path)
    fig.canvas.draw()
    pixels = numpy.asarray(fig.canvas.buffer_rgba()).copy()
    data = line.get_xydata()
    plt.close(fig)
    return pixels, data


def test_matplotlib_plot_and_savefig(tmp_path):
    got_px, got_xy = _figure(tnp, tmp_path / "tnp.png")
    want_px, want_xy = _figure(numpy, tmp_path / "numpy.png")
    assert (tmp_path / "tnp.png").stat().st_size > 0
    assert (tmp_path / "tnp.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    _same(got_xy, want_xy, rtol=0, atol=0)
    assert got_px.shape == want_px.shape and (got_px == want_px).all()


# ---- scikit-learn ------------------------------------------------------------------------------
def test_sklearn_fit_predict():
    from sklearn.cluster import KMeans
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.preprocessing import StandardScaler
    X = RNG.standard_normal((60, 3))
    y = X @ numpy.array([1.5, -2.0, 0.5]) + 0.1 * RNG.standard_normal(60)
    labels = (y > 0).astype(numpy.int64)
    tX, ty, tlabels = tnp.asarray(X), tnp.asarray(y), tnp.asarray(labels)

    got, want = LinearRegression().fit(tX, ty), LinearRegression().fit(X, y)
    _same(got.coef_, want.coef_, rtol=1e-10)
    _same(got.predict(tX), want.predict(X), rtol=1e-10)

    got, want = StandardScaler().fit(tX), StandardScaler().fit(X)
    _same(got.transform(tX), want.transform(X))

    got, want = LogisticRegression().fit(tX, tlabels), LogisticRegression().fit(X, labels)
    _same(got.predict_proba(tX), want.predict_proba(X), rtol=1e-8)
    assert (got.predict(tX) == want.predict(X)).all()

    got = KMeans(n_clusters=3, n_init=2, random_state=0).fit(tX)
    want = KMeans(n_clusters=3, n_init=2, random_state=0).fit(X)
    _same(got.cluster_centers_, want.cluster_centers_, rtol=1e-10)
    assert (got.predict(tX) == want.predict(X)).all()
