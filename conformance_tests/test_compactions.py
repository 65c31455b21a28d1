"""Compactions that live on against NumPy: ``x = x[m]`` loops over a shrinking active set and
loops of ``nonzero``, ``argwhere``, ``flatnonzero``, ``extract``, ``compress`` and ``unique``
whose result length changes every iteration (each count a new shape: on the CPU a count never
seen runs on the NumPy tier, ``tnp._core.engine.tiering``), every result compared with NumPy's:
dtype, shape, values, ``len``, printing and iteration. ``tests/test_compaction_static.py``
counts their compiles."""
import numpy as np
import pytest

from engine import check

C = (np.linspace(-2.1, 0.7, 13)[None, :] + 1j * np.linspace(-1.3, 1.3, 11)[:, None]).ravel()
V = (np.arange(600) * 7919) % 1009


def compacting_mandelbrot(xp, c, iterations=14):
    """The escape-time loop with the active points compacted out each iteration (z, c and
    their indices: ``examples/masked_fractal.py``'s second half)."""
    idx = xp.arange(c.size)
    z = xp.zeros_like(c)
    escape = xp.full(c.size, iterations, dtype=np.int32)
    lengths = []
    for n in range(iterations):
        z = z * z + c
        out = xp.abs(z) > 2.0
        escape[idx[out]] = n
        keep = ~out
        z, c, idx = z[keep], c[keep], idx[keep]
        lengths.append(len(z))
    return escape, z, idx, lengths


def test_compacting_mandelbrot():
    check(compacting_mandelbrot, C, rtol=1e-12)


def test_compacted_array_behaves_as_numpys():
    """The compacted arrays of the loop read as NumPy's: shape, ``len``, printing (``repr``,
    ``str``), iteration, reductions, a further compaction and a write."""
    def body(xp, c):
        _, z, idx, _ = compacting_mandelbrot(xp, c, 6)
        idx[::2] = -1
        return (z.shape, len(idx), repr(idx), str(z.real.round(6)), [int(i) for i in idx],
                z.sum(), idx.max(), z[z.real > 0], np.asarray(idx).tolist())
    check(body, C, rtol=1e-12, atol=1e-12)  # (the sum's order: a cancelling imaginary part)


@pytest.mark.parametrize("step", [3, -2], ids=["growing", "shrinking"])
def test_nonzero_family_loop(step):
    """Every iteration a new count (growing or shrinking by ``step`` per iteration and jumping
    with the modulus): nonzero, argwhere, flatnonzero, extract, compress, unique."""
    def body(xp, v):
        v = xp.asarray(v)
        out = []
        for n in range(8):
            bound = 500 + step * 40 * n
            sel = v < bound
            (nz,) = xp.nonzero(sel)
            out += [nz, xp.argwhere(sel.reshape(20, 30)), xp.flatnonzero(sel.reshape(20, 30)),
                    xp.extract(sel, v), xp.compress(sel, v), xp.unique(v[sel] % (50 + 7 * n)),
                    len(nz)]
        return out
    check(body, V, exact=True)


def test_unique_forms_loop():
    def body(xp, v):
        v = xp.asarray(v).reshape(30, 20)
        out = []
        for n in range(4):
            w = v % (40 + 9 * n)
            out += [xp.unique(w), xp.unique(w, return_inverse=True),
                    xp.unique(w, return_index=True, return_counts=True),
                    xp.unique(w[:, :3] % 4, axis=0)]
        return out
    check(body, V, exact=True)


def test_shrinking_compaction_of_2d_rows():
    """``x = x[m]`` with a row mask of a 2-D array (the rows compacted) and a mask of its whole
    shape (a 1-d result)."""
    def body(xp, v):
        x = xp.asarray(v, dtype=float).reshape(60, 10)
        out = []
        for n in range(5):
            x = x[x[:, n] > 300 + 50 * n]
            out += [x, x.shape, x[x > 600]]
        return out
    check(body, V, exact=True)


def test_extract_out_of_bounds_condition_raises_as_numpy():
    check(lambda xp: xp.extract(xp.asarray([0, 0, 0, 1]), xp.arange(3)))
