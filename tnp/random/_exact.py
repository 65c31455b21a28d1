"""The exact engine: NumPy's own bit generators and distribution code, run on the host.

This host step is the exact engine's defining property: the numbers are NumPy's, bit for bit,
for the same seed and call sequence, because NumPy's code draws them. Parameters that are tnp
arrays are read to the host, and results become tnp arrays with NumPy's dtypes, placed by
``tiers.new_root``. Permutations (``shuffle``, ``permutation``, ``permuted``, ``choice`` of an array) draw
only their indices on the host and move the data on the device; ``shuffle`` writes through the
one write path. For compiled code and device-side generation use the device engine
(``tnp.random.default_rng(tnp.random.Threefry(seed))``).

Under ``tnp_ext.jit`` (or with traced arguments) there is no host step: each exact generator then
draws from a companion device-engine generator (seeded from its current state, re-seeded by
``seed``/``set_state``), whose key the compiled function threads. Compiled code therefore draws
different numbers than eager code.
"""
import copy
import functools
import inspect

from .._core.engine.jaxload import jax, jcore as _jcore, loaded, Tracer
import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .._core.rules import probe
from .._core.engine import tracing
from .._core.array import write
from .._core.rules.errors import TnpTracingError
from .._core.array.ndarray import ndarray
from ._convert import take, to_host, to_tnp
from ._entropy import unless_seeded

_HOST_RESULTS = {"get_state", "set_state", "seed", "bytes"}
_RESEEDS = {"seed", "set_state"}
# Legacy names whose device-engine spelling differs (used when traced).
_TRACED_LEGACY = {
    "rand": lambda g, *shape: g.random(shape or None),
    "randn": lambda g, *shape: g.standard_normal(shape or None),
    "random_sample": lambda g, size=None: g.random(size),
    "random": lambda g, size=None: g.random(size),
    "randint": lambda g, low, high=None, size=None, dtype=int: g.integers(low, high, size, dtype),
    "random_integers": lambda g, low, high=None, size=None: (
        g.integers(1, low, size, endpoint=True) if high is None else
        g.integers(low, high, size, endpoint=True)),
}


_PLAIN = frozenset({int, float, complex, bool, type(None)})


def _plain(args):
    """Whether ``args`` are Python numbers and None only (no array, so nothing traced)."""
    for a in args:
        if type(a) not in _PLAIN:
            return False
    return True


def _traced(args, kwargs):
    if not loaded():  # no trace before JAX is imported
        return False
    if not tracing.active() and _plain(args) and _plain(kwargs.values()):
        return False
    leaves = jax.tree_util.tree_leaves((args, kwargs), is_leaf=lambda x: isinstance(x, ndarray))
    return tracing.active() or any(
        isinstance(x._root._buf if isinstance(x, ndarray) else x, Tracer)
        for x in leaves)


# The device engine's (bit generator, Generator subclass), registered by ``_device`` when it is
# imported (``tnp.random`` imports it): this module does not import it.
_DEVICE_ENGINE = []


def register_device_engine(bit_generator_cls, generator_cls):
    """Make ``Generator(bit_generator_cls(...))`` a ``generator_cls``, and use that engine for
    the exact engine's traced calls."""
    _DEVICE_ENGINE[:] = (bit_generator_cls, generator_cls)


def _stand_in(out):
    """A NumPy array NumPy's sampler fills in place of the tnp ``out``, laid out and flagged as
    ``out`` is where NumPy's checks read it (C or F order, not contiguous, read-only), so that
    NumPy refuses what it refuses."""
    f = out.flags
    if f.c_contiguous or f.f_contiguous or out.ndim == 0:
        stand = np.empty(out.shape, out.dtype, order="C" if f.c_contiguous else "F")
    else:
        stand = np.empty(out.shape[:-1] + (2 * out.shape[-1],), out.dtype)[..., ::2]
    stand.flags.writeable = f.writeable
    return stand


def _exact(numpy_method):
    """A method running ``numpy_method`` on the wrapped NumPy generator (``self._np``)."""
    name = numpy_method.__name__
    host = name in _HOST_RESULTS
    out_position = []  # (NumPy's signature read at the first call: 1 ms of ``import`` saved)

    @functools.wraps(numpy_method)
    def method(self, *args, **kwargs):
        if not kwargs and _plain(args):  # no array among the arguments: nothing to convert
            result = getattr(self._np, name)(*args)
            if name in _RESEEDS:
                self._reseed_companion()
            return result if host else to_tnp(result, ())
        if not out_position:
            params = list(inspect.signature(numpy_method).parameters)[1:]
            out_position.append(params.index("out") if "out" in params else None)
        out_at = out_position[0]
        if out_at is not None and len(args) > out_at:
            args, kwargs = args[:out_at], {**kwargs, "out": args[out_at]}
        out = kwargs.get("out")
        if isinstance(out, ndarray):
            kwargs["out"] = _stand_in(out)
            getattr(self._np, name)(*to_host(args), **to_host(kwargs))
            write.assign(out, kwargs["out"])
            return out
        result = getattr(self._np, name)(*to_host(args), **to_host(kwargs))
        if name in _RESEEDS:
            self._reseed_companion()
        return result if host else to_tnp(result, (args, kwargs))
    return method


def _device_when_traced(fn):
    """``fn``, but drawing from the companion device generator when called under a trace."""
    name = fn.__name__

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if _traced(args, kwargs):
            return self._device_call(name, args, kwargs)
        return fn(self, *args, **kwargs)
    return method


def _install(cls, numpy_cls, names):
    for name in names:
        fn = cls.__dict__.get(name) or _exact(getattr(numpy_cls, name))
        if callable(fn):
            setattr(cls, name, _device_when_traced(fn))


def _positions(n):
    return np.arange(n, dtype=np.intp)


class _Engine:
    """What both exact classes share: index-only permutations of tnp arrays (indices drawn on
    the host, data moved on the device) and the companion device generator used when traced."""

    _companion = None

    def _bitgen(self):
        return self._np.bit_generator

    def _companion_seed(self):
        return copy.deepcopy(self._bitgen()).random_raw(2).tolist()

    def _device(self):
        if self._companion is None:
            bit_generator, generator = _DEVICE_ENGINE
            with _jcore.eval_context():  # made eagerly, so a trace threads its key
                self._companion = generator(bit_generator(self._companion_seed()))
        return self._companion

    def _reseed_companion(self):
        if self._companion is not None:
            write.assign(self._companion.bit_generator.key,
                         _DEVICE_ENGINE[0](self._companion_seed()).key._value)

    def _device_call(self, name, args, kwargs):
        gen = self._device()
        if isinstance(self, RandomState) and name in _TRACED_LEGACY:
            return _TRACED_LEGACY[name](gen, *args, **kwargs)
        if name in _HOST_RESULTS or not hasattr(gen, name):
            raise TnpTracingError(f"{name} works on the exact engine's host state and cannot "
                                  f"run under a trace; call it outside the compiled function")
        return getattr(gen, name)(*args, **kwargs)

    def _index_shuffle(self, x, axis):
        axis = normalize_axis_index(axis, x.ndim)
        idx = _positions(x.shape[axis])
        self._np.shuffle(idx)
        write.assign(x, take(x, idx, axis))  # (an object array's on the host)

    def _index_permutation(self, x, axis):
        axis = normalize_axis_index(axis, x.ndim)
        return take(x, self._np.permutation(x.shape[axis]), axis)


class RandomState(_Engine):
    """NumPy's legacy ``RandomState`` (MT19937), drawing exactly NumPy's numbers."""

    def __init__(self, seed=None):
        if isinstance(seed, RandomState):
            self._np = seed._np
            return
        shared = unless_seeded(seed)  # (a distributed run's entropy: MT19937 seeds from it)
        self._np = np.random.RandomState(
            np.random.MT19937(shared) if seed is None and shared is not None else seed)

    def __repr__(self):
        return f"RandomState({type(self._np._bit_generator).__name__})"

    def _bitgen(self):
        return self._np._bit_generator

    def __getstate__(self):
        return {"np": self._np}

    def __setstate__(self, state):
        self._np = state["np"]

    @functools.wraps(np.random.RandomState.shuffle)
    def shuffle(self, x):
        if isinstance(x, ndarray) and x.ndim >= 1:
            return self._index_shuffle(x, 0)
        return self._np.shuffle(to_host(x) if isinstance(x, ndarray) else x)

    @functools.wraps(np.random.RandomState.permutation)
    def permutation(self, x):
        if isinstance(x, ndarray) and x.ndim >= 1:
            return self._index_permutation(x, 0)
        return to_tnp(self._np.permutation(to_host(x)), x)

    @functools.wraps(np.random.RandomState.choice)
    def choice(self, a, size=None, replace=True, p=None):
        if isinstance(a, ndarray) and a.ndim == 1:
            idx = self._np.choice(_positions(a.shape[0]), size, replace, to_host(p))
            return take(a, idx, 0)
        return to_tnp(self._np.choice(to_host(a), size, replace, to_host(p)), (a, p))


_install(RandomState, np.random.RandomState,
         [n for n in dir(np.random.RandomState) if not n.startswith("_")])


class Generator(_Engine):
    """NumPy's ``Generator`` over one of NumPy's bit generators, drawing exactly NumPy's numbers.

    ``Generator(Threefry(seed))`` is a device-engine generator (see ``tnp.random._device``)."""

    def __new__(cls, bit_generator):
        if cls is Generator and isinstance(bit_generator, _DEVICE_ENGINE[0]):
            cls = _DEVICE_ENGINE[1]
        return super().__new__(cls)

    _poisson_lam_max = np.random.Generator._poisson_lam_max  # NumPy's bound of poisson's lam

    def __init__(self, bit_generator):
        self._np = np.random.Generator(bit_generator)

    @classmethod
    def _wrap(cls, numpy_generator):
        self = super().__new__(cls)
        self._np = numpy_generator
        return self

    def __repr__(self):
        return f"Generator({type(self._np.bit_generator).__name__})"

    def __reduce__(self):
        return Generator._wrap, (self._np,)

    @property
    def bit_generator(self):
        """NumPy's bit generator object behind this generator (its state is NumPy's format)."""
        return self._np.bit_generator

    @functools.wraps(np.random.Generator.spawn)
    def spawn(self, n_children):
        return [Generator._wrap(g) for g in self._np.spawn(n_children)]

    @functools.wraps(np.random.Generator.shuffle)
    def shuffle(self, x, axis=0):
        if isinstance(x, ndarray) and x.ndim >= 1 and x.size:
            return self._index_shuffle(x, axis)
        return self._np.shuffle(to_host(x) if isinstance(x, ndarray) else x, axis)

    @functools.wraps(np.random.Generator.permutation)
    def permutation(self, x, axis=0):
        if isinstance(x, ndarray) and x.ndim >= 1:
            return self._index_permutation(x, axis)
        return to_tnp(self._np.permutation(to_host(x), axis), x)

    @functools.wraps(np.random.Generator.permuted)
    def permuted(self, x, *, axis=None, out=None):
        if not isinstance(x, ndarray) or (out is not None and not isinstance(out, ndarray)):
            return to_tnp(self._np.permuted(to_host(x), axis=axis, out=to_host(out)), (x, out))
        if out is not None and (out.shape != x.shape or not np.can_cast(x.dtype, out.dtype)):
            # NumPy's error (its shape check, then its copy of x into out, casting 'safe'),
            # before any draw
            probe.call(self._np.permuted, probe.like(x), axis=axis,
                       out=probe.Out(out.shape, out.dtype))
        flat = np.arange(x.size, dtype=np.intp).reshape(x.shape)
        idx = self._np.permuted(flat, axis=axis)
        result = take(x.reshape(-1), idx.reshape(-1), 0).reshape(x.shape)
        if out is None:
            return result
        write.assign(out, result)
        return out

    @functools.wraps(np.random.Generator.choice)
    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        if isinstance(a, ndarray) and a.ndim >= 1:
            axis = normalize_axis_index(axis, a.ndim)
            idx = self._np.choice(_positions(a.shape[axis]), size, replace, to_host(p), 0,
                                  shuffle)
            return take(a, idx, axis)
        return to_tnp(self._np.choice(to_host(a), size, replace, to_host(p), axis, shuffle),
                      (a, p))


_install(Generator, np.random.Generator,
         [n for n in dir(np.random.Generator) if not n.startswith("_") and n != "bit_generator"])
