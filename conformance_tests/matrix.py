"""The default run's share of a test matrix (functions x cases: every operator over every dtype
pair): the device pass compiles a kernel per case, about 40 ms of XLA each on a 2-core CPU (a
linear-algebra kernel 0.3 s), so its full matrices are the ``slow`` profile (``python -m pytest
-m slow``) and its default run takes a share of them; the ``auto`` pass (NumPy's own loops on
the host tier, no compile) takes them whole (``conftest.pytest_collection_modifyitems`` drops
the ``DEVICE_SHARE`` mark there).

- ``rotated(params, share)``: of each function's cases (the parameters' first value names the
  function), the ``i``-th is kept when ``(i + f) % share == 0``, ``f`` the function's order.
  Each function is tested on every ``share``-th case, and each case (a dtype pair, say) by
  every ``share``-th function, so with at least ``share`` functions every case is met by one
  of them. Parameters already marked ``slow`` are left as they are and not counted.
- ``kept(values, keep)``: the values, those not in ``keep`` left to the ``slow`` profile (the
  integer dtypes that all reach LAPACK as float64: two of them stand for the rest).
"""
import pytest

DEVICE_SHARE = pytest.mark.slow(device_share=True)


def _name(value):
    """A function's key: its name, or its ``repr`` (a dict of keywords is not hashable)."""
    return getattr(value, "__name__", None) or repr(value)


def _slow(param):
    return any(m.name == "slow" for m in param.marks)


def rotated(params, share):
    """``params`` (``pytest.param``s or tuples of values), all but the default run's share
    marked ``DEVICE_SHARE`` (see the module docstring)."""
    order, seen, out = {}, {}, []
    for p in params:
        p = p if hasattr(p, "marks") else pytest.param(*p)
        if not _slow(p):
            key = _name(p.values[0])
            f = order.setdefault(key, len(order))
            i = seen[key] = seen.get(key, -1) + 1
            if (i + f) % share:
                p = pytest.param(*p.values, id=p.id, marks=(*p.marks, DEVICE_SHARE))
        out.append(p)
    return out


def kept(values, keep):
    """``values`` as ``pytest.param``s (ids ``str``), those not in ``keep`` marked
    ``DEVICE_SHARE``."""
    return [pytest.param(v, id=str(v), marks=() if v in keep else DEVICE_SHARE) for v in values]
