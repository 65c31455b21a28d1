"""The exact engine: tnp.random draws NumPy's numbers bit for bit (values compared exactly)."""
import numpy as np
import pytest

import tnp
import tnp_ext
from engine import assert_same, check

SEEDS = [0, 2024]
A = np.array([0.5, 1.0, 2.0])
B = np.array([[1.0], [3.0]])
P5 = [0.1, 0.2, 0.3, 0.25, 0.15]
MEAN = np.array([0.0, 1.0])
COV = np.array([[2.0, 0.5], [0.5, 1.0]])

# (name, positional args, keyword args): scalars, arrays, broadcasting parameters, size tuples.
COMMON = [
    ("beta", (0.5, 2.0), {}), ("beta", (A, B), {}), ("beta", (2.0, 3.0), {"size": (2, 3)}),
    ("binomial", (10, 0.3), {"size": 5}), ("binomial", (np.array([5, 10, 20]), 0.5), {}),
    ("bytes", (7,), {}),
    ("chisquare", (3.0,), {"size": (2, 2)}), ("chisquare", (A,), {}),
    ("choice", (5,), {"size": 3}), ("choice", (5,), {"size": 4, "p": P5}),
    ("choice", (np.arange(6.0),), {"size": (2, 2), "replace": False}),
    ("choice", (np.arange(5) * 3,), {"size": 3, "p": np.array(P5)}),
    ("choice", (np.arange(5),), {}),
    ("dirichlet", ([1.0, 2.0, 3.0],), {"size": 2}), ("dirichlet", (np.array([0.5, 0.5]),), {}),
    ("exponential", (), {}), ("exponential", (A,), {"size": (2, 3)}),
    ("f", (3.0, 5.0), {"size": 4}), ("f", (A, B), {}),
    ("gamma", (A, 2.0), {}), ("gamma", (0.5,), {"size": 3}),
    ("geometric", (0.3,), {"size": 5}), ("geometric", (np.array([0.2, 0.9]),), {}),
    ("gumbel", (0.0, A), {}), ("gumbel", (), {"size": 2}),
    ("hypergeometric", (10, 5, 6), {"size": 4}),
    ("laplace", (1.0, 2.0), {"size": (3,)}), ("logistic", (A, 1.0), {}),
    ("lognormal", (0.0, 0.5), {"size": 3}), ("lognormal", (A, B), {}),
    ("logseries", (0.6,), {"size": 4}),
    ("multinomial", (10, [0.2, 0.3, 0.5]), {"size": 2}),
    ("multivariate_normal", (MEAN, COV), {"size": 3}), ("multivariate_normal", (MEAN, COV), {}),
    ("negative_binomial", (5, 0.4), {"size": 4}),
    ("noncentral_chisquare", (3.0, 1.5), {"size": 3}),
    ("noncentral_f", (3.0, 5.0, 1.0), {"size": 3}),
    ("normal", (), {}), ("normal", (A, B), {}), ("normal", (1.0, 2.0), {"size": (2, 3)}),
    ("pareto", (A,), {}), ("permutation", (6,), {}), ("permutation", (np.arange(5.0),), {}),
    ("permutation", (np.arange(12.0).reshape(4, 3),), {}),
    ("poisson", (A,), {}), ("poisson", (4.0,), {"size": (2, 2)}), ("poisson", (), {}),
    ("power", (2.0,), {"size": 3}), ("rayleigh", (A,), {}),
    ("standard_cauchy", (), {"size": 3}), ("standard_exponential", (3,), {}),
    ("standard_gamma", (A,), {}), ("standard_gamma", (2.5,), {"size": (2, 2)}),
    ("standard_normal", ((2, 3),), {}), ("standard_normal", (), {}),
    ("standard_t", (4.0,), {"size": 3}), ("standard_t", (A,), {}),
    ("triangular", (0.0, 1.0, 3.0), {"size": 3}), ("triangular", (0.0, A, 3.0), {}),
    ("uniform", (A, 5.0), {}), ("uniform", (), {"size": 2}), ("uniform", (), {}),
    ("vonmises", (0.5, 2.0), {"size": 3}), ("wald", (1.0, 2.0), {"size": 3}),
    ("weibull", (A,), {}), ("weibull", (1.5,), {"size": 2}), ("zipf", (2.0,), {"size": 3}),
]
LEGACY = COMMON + [
    ("rand", (), {}), ("rand", (2, 3), {}), ("randn", (3,), {}), ("randn", (), {}),
    ("randint", (5,), {}), ("randint", (2, 9), {"size": (3,), "dtype": np.int16}),
    ("randint", (np.array([0, 5]), 10), {}), ("randint", (0, 2), {"size": 4, "dtype": bool}),
    ("random", (), {}), ("random", ((2, 2),), {}), ("random_integers", (1, 6), {"size": 4}),
    ("random_sample", (3,), {}), ("ranf", (2,), {}), ("sample", (2,), {}),
]
GENERATOR = COMMON + [
    ("random", (), {}), ("random", ((2, 2),), {}), ("random", (3,), {"dtype": np.float32}),
    ("standard_normal", (3,), {"dtype": np.float32}),
    ("standard_exponential", (3,), {"method": "inv"}),
    ("standard_gamma", (2.0, 3), {"dtype": np.float32}),
    ("integers", (5,), {}), ("integers", (2, 9), {"size": (3,), "dtype": np.int16}),
    ("integers", (0, 5), {"size": 6, "endpoint": True}),
    ("integers", (np.array([0, 5]), 10), {}), ("integers", (0, 2), {"size": 4, "dtype": bool}),
    ("integers", (0, 2**40), {"size": 3, "dtype": np.uint64}),
    ("choice", (np.arange(12).reshape(3, 4),), {"size": 2, "axis": 1}),
    ("choice", (7,), {"size": 3, "replace": False, "shuffle": False}),
    ("permutation", (np.arange(12).reshape(3, 4),), {"axis": 1}),
    ("permuted", (np.arange(12).reshape(3, 4),), {"axis": 1}),
    ("permuted", (np.arange(12).reshape(3, 4),), {}),
    ("multivariate_hypergeometric", ([3, 4, 5], 6), {"size": 2}),
    ("multivariate_normal", (MEAN, COV), {"size": 2, "method": "cholesky"}),
]


def _ids(cases):
    return [f"{n}-{i}" for i, (n, _, _) in enumerate(cases)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name,args,kwargs", LEGACY, ids=_ids(LEGACY))
def test_legacy_function(name, args, kwargs, seed):
    def body(xp, *args):
        xp.random.seed(seed)
        fn = getattr(xp.random, name)
        return [fn(*args, **kwargs), fn(*args, **kwargs)]
    check(body, *args, rtol=0)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name,args,kwargs", GENERATOR, ids=_ids(GENERATOR))
def test_generator_method(name, args, kwargs, seed):
    def body(xp, *args):
        rng = xp.random.default_rng(seed)
        fn = getattr(rng, name)
        return [fn(*args, **kwargs), fn(*args, **kwargs)]
    check(body, *args, rtol=0)


@pytest.mark.parametrize("bitgen", ["MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64"])
def test_generator_over_each_bit_generator(bitgen):
    def body(xp):
        rng = xp.random.Generator(getattr(xp.random, bitgen)(11))
        return [rng.normal(size=3), rng.integers(0, 100, 4), rng.random()]
    check(body, rtol=0)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_state_methods(seed):
    def body(xp):
        rs = xp.random.RandomState(seed)
        return [rs.randn(2, 2), rs.randint(0, 9, 3), rs.tomaxint(2), rs.choice(4, 2)]
    check(body, rtol=0)


@pytest.mark.parametrize("kind", ["legacy", "generator"])
@pytest.mark.parametrize("x", [np.arange(8.0), np.arange(12).reshape(4, 3),
                               np.arange(6, dtype=np.int32)])
def test_shuffle_in_place(kind, x):
    def body(xp, x):
        shuffle = (xp.random.RandomState(5) if kind == "legacy" else
                   xp.random.default_rng(5)).shuffle
        shuffle(x)
        shuffle(x)
        return x
    check(body, x, rtol=0)


def test_generator_shuffle_axis_and_views():
    def body(xp, x):
        rng = xp.random.default_rng(8)
        rng.shuffle(x, axis=1)
        rng.shuffle(x[1:])
        return x
    check(body, np.arange(20.0).reshape(4, 5), rtol=0)


def test_shuffle_list():
    def body(xp):
        rng = xp.random.default_rng(3)
        x = list(range(7))
        rng.shuffle(x)
        xp.random.seed(3)
        y = list(range(7))
        xp.random.shuffle(y)
        return [xp.array(x), xp.array(y)]
    check(body, rtol=0)


@pytest.mark.parametrize("name,kwargs", [("random", {}), ("standard_normal", {}),
                                         ("standard_exponential", {}),
                                         ("standard_gamma", {"shape": 2.0})])
def test_out(name, kwargs):
    def body(xp, out):
        result = getattr(xp.random.default_rng(4), name)(out=out, **kwargs)
        return [result, out]
    check(body, np.zeros((2, 3)), rtol=0)


@pytest.mark.parametrize("layout", ["F", "strided", "read-only", "C"])
@pytest.mark.parametrize("name,kwargs", [("random", {}), ("standard_normal", {}),
                                         ("standard_gamma", {"shape": [1.0, 2.0, 3.0]})])
def test_out_layout(name, kwargs, layout):
    """NumPy's check of ``out=``: contiguous (C only for a sampler of array parameters),
    writeable; NumPy's ValueError otherwise."""
    def body(xp):
        out = {"F": lambda: xp.zeros((2, 3), order="F"),
               "strided": lambda: xp.zeros((2, 6))[:, ::2],
               "C": lambda: xp.zeros((2, 3))}.get(layout, lambda: xp.zeros((2, 3)))()
        if layout == "read-only":
            out.flags.writeable = False
        result = getattr(xp.random.default_rng(4), name)(out=out, **kwargs)
        return [result, out]
    check(body, rtol=0)


def test_interleaved_calls_and_state_restore():
    def body(xp):
        xp.random.seed(42)
        a = xp.random.normal(size=3)
        b = xp.random.randint(0, 10, size=4)
        state = xp.random.get_state()
        c = xp.random.rand(5)
        d = xp.random.choice(10, 3, replace=False)
        xp.random.set_state(state)
        e = xp.random.rand(5)
        f = xp.random.choice(10, 3, replace=False)
        xp.random.seed(42)
        g = xp.random.normal(size=3)
        return [a, b, c, d, e, f, g]
    check(body, rtol=0)


def test_generator_state_restore():
    def body(xp):
        rng = xp.random.default_rng(9)
        state = rng.bit_generator.state
        a = rng.normal(size=4)
        rng.bit_generator.state = state
        b = rng.normal(size=4)
        c = [g.integers(0, 100, 3) for g in rng.spawn(2)]
        return [a, b] + c
    check(body, rtol=0)


def test_state_round_trips_with_numpy():
    ref = np.random.RandomState(7)
    tnp.random.set_state(ref.get_state())
    assert_same(tnp.random.normal(size=5), ref.normal(size=5), rtol=0)
    state = tnp.random.get_state()
    assert_same(state[1], ref.get_state()[1], rtol=0, host_ok=True)  # NumPy's state format
    ref.set_state(state)
    assert_same(tnp.random.random(3), ref.random(3), rtol=0)
    mine, theirs = tnp.random.get_state(legacy=False), ref.get_state(legacy=False)
    assert mine["bit_generator"] == theirs["bit_generator"]
    assert mine["state"]["pos"] == theirs["state"]["pos"]
    assert_same(mine["state"]["key"], theirs["state"]["key"], rtol=0, host_ok=True)


@pytest.mark.parametrize("call", [lambda r: r.choice(2, ()), lambda r: r.choice(3, (), False),
                                  lambda r: r.integers(5, size=()), lambda r: r.random(())],
                         ids=["choice", "choice-no-replace", "integers", "random"])
def test_size_empty_tuple_is_a_0d_array(call):
    """``size=()``: NumPy's 0-d array, not its scalar (``isscalar``, ``repr``)."""
    def body(xp):
        r = call(xp.random.default_rng(3))
        return xp.isscalar(r), repr(r), r.ndim
    check(body)


@pytest.mark.parametrize("mode", ["device", "auto"])
def test_results_are_tnp_arrays(mode):
    with tnp_ext.placement(mode):
        out = tnp.random.default_rng(0).normal(size=3)
        scalar = tnp.random.default_rng(0).integers(5)
    assert isinstance(out, tnp.ndarray) and out._on_host == (mode == "auto")
    expected = np.random.default_rng(0).integers(5)
    if mode == "device":  # a 0-d device array stands for NumPy's scalar
        assert isinstance(scalar, tnp.ndarray) and not scalar._on_host
        assert repr(scalar) == repr(expected)
    else:  # the host tier returns NumPy's scalars
        assert type(scalar) is type(expected) and scalar == expected


BAD = [
    ("normal", (0.0, -1.0), {}), ("normal", (0.0, np.array([1.0, -1.0])), {}),
    ("exponential", (-2.0,), {}), ("gamma", (-1.0,), {}), ("beta", (0.0, 1.0), {}),
    ("binomial", (10, 1.5), {}), ("poisson", (-1.0,), {}), ("uniform", (0.0, np.inf), {}),
    ("choice", (5,), {"p": [0.5, 0.5, 0.5, 0.0, 0.0]}), ("choice", (3,), {"p": [0.5, 0.5]}),
    ("choice", (3,), {"size": 5, "replace": False}), ("choice", (0,), {"size": 2}),
    ("dirichlet", ([1.0, -1.0],), {}), ("multinomial", (3, [0.6, 0.6]), {}),
    ("permutation", (np.float64(3.5),), {}), ("chisquare", (0.0,), {}),
    ("normal", (A,), {"size": 2}),
]


@pytest.mark.parametrize("name,args,kwargs", BAD, ids=_ids(BAD))
@pytest.mark.parametrize("kind", ["legacy", "generator"])
def test_bad_parameters(kind, name, args, kwargs):
    def body(xp, *args):
        src = xp.random.RandomState(0) if kind == "legacy" else xp.random.default_rng(0)
        return getattr(src, name)(*args, **kwargs)
    check(body, *args, rtol=0)


@pytest.mark.parametrize("args", [(5, 5), (5, 2), (np.array([0, 3]), 3)])
def test_low_not_below_high(args):
    check(lambda xp, *a: xp.random.randint(*a), *args)
    check(lambda xp, *a: xp.random.default_rng(1).integers(*a), *args)


PUBLIC = sorted(n for n in dir(np.random) if not n.startswith("_")
                and n not in ("bit_generator", "mtrand", "test"))


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_is_native_with_numpys_signature(name):
    import inspect
    from tnp._core.dispatch.fallback import is_fallback
    ours, theirs = getattr(tnp.random, name), getattr(np.random, name)
    assert not is_fallback(ours)
    if callable(theirs):
        assert inspect.signature(ours) == inspect.signature(theirs)


@pytest.mark.parametrize("cls", ["Generator", "RandomState"])
def test_methods_have_numpys_signatures(cls):
    import inspect
    ours, theirs = getattr(tnp.random, cls), getattr(np.random, cls)
    for name in dir(theirs):
        if not name.startswith("_") and callable(getattr(theirs, name)):
            assert inspect.signature(getattr(ours, name)) == inspect.signature(
                getattr(theirs, name)), name


def test_out_positional():
    def body(xp, out):
        return [xp.random.default_rng(2).random(None, np.float64, out), out]
    check(body, np.zeros(4), rtol=0)


@pytest.mark.parametrize("kind", ["legacy", "generator"])
@pytest.mark.parametrize("make", [
    lambda xp: xp.array([(1,), (1, 2, 3), "x", None, 2.5], dtype=object),
    lambda xp: xp.array(["a", "bbb", "cc", "d" * 40]),
    lambda xp: xp.array([[1, "x"], [None, 2.5], [3, 4]], dtype=object),
], ids=["objects", "strings", "objects2d"])
def test_shuffle_permutation_host_dtypes(kind, make):
    # object and string arrays live on the host: the same permutation as NumPy's
    def body(xp):
        rng = xp.random.RandomState(5) if kind == "legacy" else xp.random.default_rng(5)
        x = make(xp)
        rng.shuffle(x)
        p = rng.permutation(x)
        if kind == "legacy":
            return x, p
        return x, p, rng.permuted(x, axis=0), rng.permuted(x)
    check(body, rtol=0)


@pytest.mark.parametrize("out_dtype,out_shape", [("int32", (3, 5)), ("float32", (3, 5)),
                                                 ("float64", (3, 4)), ("complex128", (3, 5)),
                                                 ("float64", (3, 5))], ids=str)
def test_permuted_out_checks(out_dtype, out_shape):
    # NumPy checks out's shape, then copies x into it casting 'safe' (TypeError), before drawing
    def body(xp):
        rng = xp.random.default_rng(3)
        out = xp.zeros(out_shape, dtype=out_dtype)
        r = rng.permuted(xp.arange(15.0).reshape(3, 5), axis=1, out=out)
        return r, out, rng.random(2)
    check(body, rtol=0)


def test_choice_of_one_element(placement):
    """``choice(a)`` of a 1-d array: NumPy's scalar (a 0-d array on the device: diff-scalars),
    an object array's element itself, a string array's ``str_``."""
    check(lambda xp: [xp.random.default_rng(3).choice(xp.arange(5.0)),
                      xp.random.default_rng(3).choice(xp.arange(6).reshape(2, 3))], rtol=0)
    for xp in (np, tnp):
        element = xp.array([1, 2])
        arr = xp.empty(1, dtype=object)
        arr[0] = element
        assert xp.random.default_rng(3).choice(arr) is element
        assert xp.random.default_rng(3).choice(arr, ()).item() is element  # a 0-d array
        assert type(xp.random.default_rng(3).choice(xp.array(["a", "b"]))) is np.str_


def test_poisson_lam_max_is_numpys():
    """``Generator._poisson_lam_max``, NumPy's bound on poisson's ``lam`` (read by NumPy's own
    tests), and poisson's ValueError past it."""
    def body(xp):
        g = xp.random.default_rng(1)
        bound = g._poisson_lam_max
        return bound, g.poisson([bound * 2] * 3)
    check(body)
