"""Tiered execution: a computation never compiled runs on NumPy unless compiling it costs
less, and XLA compiles it in the background once it proves hot. One mechanism for lazy graph
flushes (``lazygraph.flush``) and for jitted kernels (``jaxload.jit``).

A compiled callable is known by its structure (``family``: a graph's wiring, a kernel) and, per
call, its arguments' shapes and dtypes (``signature``); the pair is an ``_Entry``. On the CPU
backend (``TNP_COLD=auto``):

- first sighting: the computation is traced to a jaxpr (``jax.make_jaxpr``, a few ms where a
  compile takes 20-500) and the cost rule (``tiercost``) weighs the NumPy tier's estimated time
  against XLA's (a compile and a fused run; a load when the persistent cache holds the
  executable: ``compilecache.known`` of its ``tiercost.stable_key``, asked only when a load
  would pay). XLA's is less (a large graph, such as an N-body step on 4e6 elements; or one an
  earlier process compiled): it compiles now, on the program's path (``STATS["eager"]``,
  ``STATS["cached"]``), unless ``EAGER_WASTE`` of the last ``EAGER_WINDOW`` computations
  compiled so never ran again (large graphs that do not recur, such as a growing array's: they
  wait to be seen twice from then on). Else (cold) the jaxpr is computed by NumPy
  (``interpreter.evaluate``) on the arguments' memory (``np.asarray`` of a CPU ``jax.Array`` is
  a read-only view, no copy); its results become device buffers without a copy (``_to_device``:
  ``jax.dlpack`` aliases a 64-byte aligned NumPy array; anything else is copied into one first).
- later sightings (hot): the caller's compile runs on a background thread (``_compile``; at most
  ``TNP_COLD_COMPILES`` in flight, 0: on the program's path) on abstract arguments (it holds
  no buffer, so donation is unchanged), while calls keep running on NumPy; when it is done the
  entry is marked compiled (one assignment: the swap) and the next call runs the executable.
- megamorphic: a family compiled more than ``MEGA_COMPILES`` times with fewer than
  ``MEGA_RUNS`` compiled runs per compile stops compiling: new signatures stay on NumPy.
- a jaxpr holding a primitive without a NumPy rule (``interpreter.Unsupported``), or a rule
  that cannot take its case (NumPy's 64 dimensions), compiles at once, on the program's path
  (the one fallback: ``STATS["fallbacks"]``, by primitive in ``MISSING``).

Each compile's stable key goes to the persistent cache's index (``compilecache.remember``).
``TNP_COLD=force`` runs every call on NumPy (where a rule exists; the conformance suite's
cold run), ``off`` compiles every call on the program's path (as before tiering). On a GPU or
TPU backend the tier is off (``docs/architecture.md``: what it would be there). Each decision
is counted (``STATS``, under ``_lock`` with the counts that decide: sightings, compiles, runs)
and, under ``python -m tnp run --report``, by program line (``syncs.note_tier``).
"""
import atexit
import collections
import threading
import weakref

import numpy as np

from .. import settings
from . import communication, compilecache, interpreter, syncs, tiercost
from .interpreter_base import ALIGN, Unsupported, is_aligned
from . import tracing
from .jaxload import jax, jcore, on_load, wrap_jit

MEGA_COMPILES = 10  # compiles of a family past which ...
MEGA_RUNS = 50  # ... fewer compiled runs than this per compile make it megamorphic
STATS = {"cold": 0, "compiled": 0, "critical": 0, "eager": 0, "cached": 0, "background": 0,
         "fallbacks": 0, "megamorphic": 0}
EAGER_WINDOW = 4  # the last first-sighting compiles watched ...
EAGER_WASTE = 3  # ... of which this many never run again stop them
MISSING = collections.Counter()  # primitive without a NumPy rule -> fallbacks it caused
MODE = "auto"
COMPILES = 1
_cpu = [None]  # whether the backend is one CPU device (asked once)
_lock = threading.Lock()
_inflight = []  # background compile threads running
_eager = collections.deque(maxlen=EAGER_WINDOW)  # the last entries compiled at first sight
BOUND = 8192  # entries (and families) remembered at most, the oldest quarter dropped past it


class _Table(dict):
    """A dict bounded by ``BOUND`` entries: past it, the oldest quarter goes (a dropped entry
    is cold again: NumPy until it proves hot)."""

    def __setitem__(self, key, value):
        if len(self) >= BOUND:
            try:
                for k in list(self)[:BOUND // 4]:
                    self.pop(k, None)
            except RuntimeError:  # changed by another thread while listing: drop all
                self.clear()
        super().__setitem__(key, value)


_ENTRIES = _Table()  # (family, signature) -> _Entry
_FAMILIES = _Table()  # family -> _Family


def _setting(name, value):
    global MODE, COMPILES
    if name == "cold":
        MODE = value
    else:
        COMPILES = max(0, value)


settings.watch(_setting, "cold", "cold_compiles")


class _Family:
    """A structure's compiles, its compiled runs and whether it stopped compiling."""
    __slots__ = ("compiles", "runs", "mega")

    def __init__(self):
        self.compiles = self.runs = 0
        self.mega = False


class _Entry:
    """One structure at one signature: its sightings, its jaxpr (traced at the first
    sighting) and size (``tiercost.size``), whether it is compiled, being compiled, has no
    NumPy rule, or ran compiled after its compile (``ran``); ``salt``: what besides the jaxpr
    decides its executable (``call``'s)."""
    __slots__ = ("seen", "jaxpr", "tree", "size", "compiled", "pending", "unsupported", "ran",
                 "family", "signature", "salt")

    def __init__(self, family, signature, salt):
        self.seen = 0
        self.jaxpr = self.tree = self.size = None
        self.compiled = self.pending = self.unsupported = self.ran = False
        self.family, self.signature, self.salt = family, signature, salt


def active():
    """Whether the tier decides at all: not ``off``, and the backend is one CPU device (with
    several, arrays may be sharded: NumPy's results would land on one device)."""
    if MODE == "off":
        return False
    cpu = _cpu[0]
    if cpu is None:
        cpu = _cpu[0] = jax.default_backend() == "cpu" and jax.device_count() == 1
    return cpu


def signature(flat):
    """The shapes, dtypes and weak types of flattened arguments (the type of a Python
    scalar): what a ``jax.jit`` specialises on."""
    return tuple((x.shape, x.dtype, getattr(x, "weak_type", False)) if hasattr(x, "dtype")
                 else type(x) for x in flat)


def call(family, args, fn, compile_, salt=None):
    """The results of ``fn(*args)`` computed on NumPy (device arrays, in ``fn``'s output
    structure), or None when the caller is to run its compiled executable (compiled
    now, on the program's path, if it is not yet: counted). ``family``: the structure's
    hashable key; ``compile_(abstract_args)``: builds the caller's executable for arguments
    of these shapes and dtypes (run in the background when the entry is hot); ``salt``: what
    besides ``fn``'s jaxpr decides the executable (its ``repr`` is part of the stable key)."""
    flat = jax.tree_util.tree_leaves(args)
    sig = signature(flat)
    key = (family, sig)
    with _lock:
        e = _ENTRIES.get(key)
        if e is None:
            f = _FAMILIES.get(family)
            if f is None:
                f = _FAMILIES[family] = _Family()
            e = _ENTRIES[key] = _Entry(f, sig, salt)
        e.seen += 1
        seen = e.seen
        if e.compiled:
            e.ran = True
            e.family.runs += 1
            STATS["compiled"] += 1
            return None
    if e.unsupported:
        return _critical(e)
    try:
        if e.jaxpr is None:
            _trace(e, fn, args)
        if MODE != "force" and not e.family.mega:
            if seen == 1:
                if _loads(e):
                    return _critical(e, "cached")
                if _pays(e):
                    return _critical(e, "eager")
            elif COMPILES == 0:
                return _critical(e)
            elif not e.pending:
                _submit(e, args, compile_)
        results = _cold(e, flat)
    except Unsupported as exc:
        e.unsupported = True
        with _lock:
            STATS["fallbacks"] += 1
            MISSING[str(exc)] += 1
        syncs.note_tier("fallback")
        return _critical(e)
    with _lock:
        STATS["cold"] += 1
    syncs.note_tier("cold")
    return results


def _pays(e):
    """Whether compiling ``e`` at its first sighting costs less than the NumPy tier's run
    (``tiercost``), and fewer than ``EAGER_WASTE`` of the last such compiles never ran again."""
    with _lock:
        wasted = sum(not x.ran for x in _eager)
    return wasted < EAGER_WASTE and tiercost.numpy_s(*e.size) > tiercost.compile_s(*e.size)


def _loads(e):
    """Whether loading ``e``'s executable from the persistent cache costs less than the NumPy
    tier's run and the cache's index holds it (its stable key computed only then)."""
    return (tiercost.numpy_s(*e.size) > tiercost.compile_s(*e.size, cached=True)
            and compilecache.known(_stable_key(e)))


def _stable_key(e):
    return tiercost.stable_key(e.jaxpr, e.signature, e.salt)


def _critical(e, why=None):
    """The caller compiles now (counted; ``why``: ``"eager"``, by the cost rule, or
    ``"cached"``, a load from the persistent cache), then runs the executable."""
    e.compiled = True
    with _lock:
        if why != "cached":
            _compiled(e.family)
            STATS["critical"] += 1
        if why is not None:
            STATS[why] += 1
        if why == "eager":
            _eager.append(e)
        e.family.runs += 1
    syncs.note_tier(why or "compile")
    if why != "cached":
        _remember(e)
    return None


def _remember(e):
    """Add ``e``'s stable key to the persistent cache's index (its executable is compiled, or
    being compiled, into the cache by the caller)."""
    if e.jaxpr is not None:
        compilecache.remember(_stable_key(e))


def _compiled(f):
    """Count a compile of family ``f`` (under ``_lock``); past the megamorphic bound it compiles
    no more."""
    f.compiles += 1
    if not f.mega and f.compiles > MEGA_COMPILES and f.runs < MEGA_RUNS * f.compiles:
        f.mega = True
        STATS["megamorphic"] += 1
        syncs.note_tier("megamorphic")


def _trace(e, fn, args):
    """Trace ``e``'s computation to its jaxpr (once per entry) and its size."""
    closed, shapes = jax.make_jaxpr(fn, return_shape=True)(*args)
    interpreter.check(closed.jaxpr)
    e.tree = jax.tree_util.tree_structure(shapes)
    e.size = tiercost.size(closed.jaxpr)
    e.jaxpr = closed


def _cold(e, flat):
    """``e``'s computation on the arguments ``flat``, computed by NumPy from its jaxpr."""
    try:
        outs = interpreter.evaluate(e.jaxpr, [np.asarray(x) for x in flat])
    except Exception as exc:  # noqa: BLE001 (a case a rule cannot take, such as NumPy's
        raise Unsupported(f"{type(exc).__name__} in a rule") from exc  # 64 dimensions: compiled)
    return jax.tree_util.tree_unflatten(e.tree, _to_device(outs))


_OWNED = weakref.WeakValueDictionary()  # id -> the raw buffers interpreter_base.aligned made


def _to_device(outs):
    """Device arrays of the NumPy results ``outs``: an aligned array of its own buffer, once,
    is aliased (``jax.dlpack``, no copy); anything else is copied into an aligned array
    first."""
    from .interpreter_base import aligned
    used = set()
    res = []
    for x in outs:
        base = x
        while isinstance(base.base, np.ndarray):
            base = base.base
        own = (base.base is None and id(base) not in used and is_aligned(x)
               and base.dtype == np.uint8 and x.nbytes + ALIGN == base.nbytes)
        if not own:
            y = aligned(x.shape, x.dtype)
            np.copyto(y, x)
            x = y
        else:
            used.add(id(base))
        try:
            res.append(jax.dlpack.from_dlpack(x))
        except (TypeError, ValueError, RuntimeError):  # a dtype DLPack cannot carry
            res.append(jax.device_put(x))
    return res


def _submit(e, args, compile_):
    """Compile ``e`` on a background thread, if fewer than ``COMPILES`` run."""
    abstract = jax.tree_util.tree_map(_abstract, args)
    with _lock:
        if len(_inflight) >= COMPILES:
            return
        e.pending = True
        t = threading.Thread(target=_compile, args=(e, compile_, abstract, syncs.caller_line()),
                             daemon=True,
                             name="tnp-compile")
        _inflight.append(t)
    t.start()


def _abstract(x):
    """An argument's shape, dtype, weak type and placement (a committed ``jax.Array``'s
    sharding: the call's cache key holds it; an uncommitted one's none, else the call would not
    find the executable and compile again): what the compile needs, no buffer."""
    if isinstance(x, jax.Array):
        return jax.ShapeDtypeStruct(x.shape, x.dtype, weak_type=x.weak_type,
                                    sharding=x.sharding if x.committed else None)
    if isinstance(x, (np.ndarray, np.generic)):
        return jax.ShapeDtypeStruct(x.shape, x.dtype)
    return x


def _compile(e, compile_, abstract, line):
    try:
        compile_(abstract)
        with _lock:
            _compiled(e.family)
            STATS["background"] += 1
        syncs.note_tier("background", line)
        _remember(e)
        e.compiled = True  # the swap: the next call runs the executable
    except Exception:  # noqa: BLE001 (the program's path compiles it and raises its error)
        e.unsupported = True
    finally:
        e.pending = False
        with _lock:
            _inflight.remove(threading.current_thread())


class Kernel:
    """A jitted kernel (``jaxload.jit``'s) run through the tiers: ``real`` (the ``jax.jit``)
    once compiled, its function ``__wrapped__`` on NumPy while cold. A call with keyword
    arguments, static argument names, or under a JAX trace is the ``jax.jit``'s; static
    positional arguments are part of the structure. Other attributes (``lower``,
    ``clear_cache``) are the ``jax.jit``'s."""

    def __init__(self, real, fun, options):
        self.real, self.__wrapped__ = real, fun
        static = options.get("static_argnums", ())
        self.static = (static,) if isinstance(static, int) else tuple(static)
        self.direct = bool(options.get("static_argnames"))
        self.salt = (getattr(fun, "__module__", None), getattr(fun, "__qualname__", None),
                     options.get("donate_argnums"), options.get("donate_argnames"))
        self.build = lambda abstract: real.lower(*abstract).compile()
        self.bound = _Table()  # (arguments, static values) -> _Static

    def __call__(self, *args, **kwargs):
        if syncs.REPORTING and type(tracing.current_trace()) is jcore.EvalTrace:
            communication.fresh()  # (``python -m tnp run --report``: its collectives counted)
            out = self._call(*args, **kwargs)
            communication.ran((self, tuple(kwargs)), args)
            return out
        return self._call(*args, **kwargs)

    def _call(self, *args, **kwargs):
        real = self.real
        if (kwargs or self.direct or not active()
                or type(tracing.current_trace()) is not jcore.EvalTrace):
            return real(*args, **kwargs)
        if self.static:
            n = len(args)
            st = tuple(i % n for i in self.static)
            fixed = tuple((i, args[i]) for i in st)
            b = self.bound.get((n, fixed))
            if b is None:
                b = self.bound[n, fixed] = _Static(self, n, fixed)
            dyn = tuple(a for i, a in enumerate(args) if i not in st)
            r = call(b.family, dyn, b.run, b.build, self.salt)
        else:
            r = call(self, args, self.__wrapped__, self.build, self.salt)
        return real(*args) if r is None else r

    def __getattr__(self, name):
        return getattr(self.real, name)


class _Static:
    """A kernel with its static positional arguments bound (made once per kernel and static
    values): ``run(*dynamic)`` calls the function, ``build(abstract_dynamic)`` compiles the
    ``jax.jit``; ``family``: the tier's structure key."""
    __slots__ = ("family", "run", "build")

    def __init__(self, kernel, n, fixed):
        self.family = (kernel, fixed)
        values = dict(fixed)

        def full(d):
            it = iter(d)
            return [values[i] if i in values else next(it) for i in range(n)]
        fun, real = kernel.__wrapped__, kernel.real
        self.run = lambda *d: fun(*full(d))
        self.build = lambda abstract: real.lower(*full(abstract)).compile()


def wait():
    """Wait for the background compiles in flight (tests; and at exit, before JAX's own
    clean-up)."""
    while True:
        with _lock:
            threads = list(_inflight)
        if not threads:
            return
        for t in threads:
            t.join()


def stats():
    """The tier's counts: cold (NumPy) runs, compiled runs, compiles on the program's path,
    background compiles, fallbacks (no NumPy rule) and megamorphic families."""
    return dict(STATS)


on_load(lambda: atexit.register(wait))
wrap_jit(Kernel)
