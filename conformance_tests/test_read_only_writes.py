"""Every write path refuses a read-only array with NumPy's ValueError and NumPy's message
(each NumPy function words it its own way: ``put: output array is read-only``, ``sort array is
read-only``, ``underlying array is read-only``...), and leaves it as it was."""
import numpy as np
import pytest

from engine import check

A = np.arange(1.0, 5.0)


def _read_only(xp, a):
    a = xp.asarray(a).copy()
    a.flags.writeable = False
    return a


WRITES = {
    "setitem": lambda xp, a, s: a.__setitem__(0, 1),
    "view_setitem": lambda xp, a, s: a[1:].__setitem__(0, 3),
    "iadd": lambda xp, a, s: a.__iadd__(1),
    "fill": lambda xp, a, s: a.fill(1),
    "copyto": lambda xp, a, s: xp.copyto(a, 1),
    "put": lambda xp, a, s: xp.put(a, [0], [1]),
    "putmask": lambda xp, a, s: xp.putmask(a, a > 2, 1),
    "place": lambda xp, a, s: xp.place(a, a > 2, [1]),
    "put_along_axis": lambda xp, a, s: xp.put_along_axis(a, xp.asarray([0]), 1.0, 0),
    "sort": lambda xp, a, s: a.sort(),
    "partition": lambda xp, a, s: a.partition(1),
    "flat": lambda xp, a, s: a.flat.__setitem__(1, 3),
    "fill_diagonal": lambda xp, a, s: xp.fill_diagonal(a.reshape(2, 2), 1),
    "ufunc_out": lambda xp, a, s: xp.add(s, 1, out=a),
    "divmod_out": lambda xp, a, s: xp.divmod(s, 1, out=(xp.zeros(4), a)),
    "accumulate_out": lambda xp, a, s: xp.add.accumulate(s, out=a),
    "cumsum_out": lambda xp, a, s: xp.cumsum(s, out=a),
    "clip_out": lambda xp, a, s: xp.clip(s, 0, 1, out=a),
    "round_out": lambda xp, a, s: xp.round(s, out=a),
    "choose_out": lambda xp, a, s: xp.choose([0, 0, 0, 0], [s], out=a),
    "take_out": lambda xp, a, s: xp.take(s, [0, 1, 2, 3], out=a),
    "sum_out": lambda xp, a, s: s.sum(out=a[:1].reshape(())),
    "mean_out": lambda xp, a, s: xp.mean(s, out=a[:1].reshape(())),
    "median_out": lambda xp, a, s: xp.median(s, out=a[:1].reshape(())),
    "trace_out": lambda xp, a, s: xp.trace(s.reshape(2, 2), out=a[:1].reshape(())),
    "dot_out": lambda xp, a, s: xp.dot(s, s, out=a[:1].reshape(())),
    "einsum_out": lambda xp, a, s: xp.einsum("i,i", s, s, out=a[:1].reshape(())),
}


@pytest.mark.parametrize("name", WRITES)
def test_read_only_target_refused(name):
    def body(xp, a):
        ro = _read_only(xp, a)
        WRITES[name](xp, ro, xp.asarray(a))
        return ro
    check(body, A)
