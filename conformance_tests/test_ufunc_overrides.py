"""NumPy's ufunc protocols for objects that are not arrays, against NumPy: an operand's own
``__array_ufunc__`` (NEP 13: what it is given, the order operands are asked in, opting out with
``None``, every operand returning NotImplemented) and the ``__array_wrap__`` a result goes
through (the input of the highest ``__array_priority__``)."""
import numpy as np

from engine import check


class Recorder:
    """Returns what it was given, as comparable facts."""
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return (ufunc.__name__, method, tuple(type(i).__name__ for i in inputs),
                {k: (type(v).__name__ if k != "out" else tuple(type(o).__name__ for o in v))
                 for k, v in kwargs.items()})


class RecorderSub(Recorder):
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return "sub"


class Declines:
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return NotImplemented

    def __repr__(self):
        return "Declines()"


class OptOut:
    __array_ufunc__ = None


def test_array_ufunc_receives_the_call():
    def body(xp, x):
        r = Recorder()
        return [xp.multiply(r, x), xp.multiply(x, x, r), xp.multiply(x, x, out=r),
                xp.multiply(x, x, out=(r,)), xp.add(r, 1, where=x > 0), xp.sin(r, None),
                xp.modf(r, None, None), xp.modf(r, out=(None, r)), xp.sin(r, out=None)]
    check(body, np.arange(3.0))


def test_array_ufunc_order_and_errors():
    def order(xp, x):
        return xp.add(Recorder(), RecorderSub())  # the subclass first
    check(order, np.arange(3.0))

    def declined(xp, x):
        return xp.add(Declines(), 2, out=(Declines(),))
    check(declined, np.arange(3.0))

    for opted_out in (lambda xp, x: xp.add(x, OptOut()),
                      lambda xp, x: xp.negative(Recorder(), out=OptOut())):
        check(opted_out, np.arange(3.0))

    def misused(xp, x):
        r = Recorder()
        for call in (lambda: xp.modf(r, out=None), lambda: xp.multiply(r, x, x, out=x),
                     lambda: xp.multiply(r, out=(x, x))):
            try:
                call()
            except (TypeError, ValueError) as e:
                yield type(e).__name__
    check(lambda xp, x: list(misused(xp, x)), np.arange(3.0))


class Wrapped:
    __array_priority__ = 0.0

    def __array__(self, dtype=None, copy=None):
        return np.arange(2.0)

    def __array_wrap__(self, arr, context=None, return_scalar=False):
        ufunc = None if context is None else (context[0].__name__, len(context[1]), context[2])
        return type(self).__name__, ufunc, arr.tolist(), return_scalar


class High(Wrapped):
    __array_priority__ = 20.0


class Higher(Wrapped):
    __array_priority__ = 40.0


class Fails(Wrapped):
    def __array_wrap__(self, arr, context=None, return_scalar=False):
        raise RuntimeError("no")


def test_array_wrap_of_the_highest_priority_input():
    def body(xp, x):
        return [xp.minimum(x, Wrapped()), xp.minimum(Wrapped(), x), xp.minimum(High(), Wrapped()),
                xp.minimum(Wrapped(), High()), xp.minimum(Higher(), High()), xp.negative(High()),
                xp.modf(Higher()), xp.maximum.reduce(High()), xp.minimum(x, 1.0)]
    check(body, np.arange(2.0))

    check(lambda xp, x: xp.maximum(Fails(), Fails()), np.arange(2.0))
    check(lambda xp, x: xp.maximum.reduce(Fails()), np.arange(2.0))


def test_subclass_calling_super_with_an_overriding_where():
    # ndarray.__array_ufunc__ (reached through super()) returns NotImplemented while an operand,
    # where= included, still overrides: every operand declining is NumPy's TypeError
    def body(xp, x):
        class Unwraps(xp.ndarray):
            def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
                if "where" in kwargs and isinstance(kwargs["where"], Unwraps):
                    kwargs["where"] = kwargs["where"].view(xp.ndarray)
                inputs = tuple(i.view(xp.ndarray) if isinstance(i, Unwraps) else i
                               for i in inputs)
                return super().__array_ufunc__(ufunc, method, *inputs, **kwargs)

        class Keeps(xp.ndarray):
            def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
                return super().__array_ufunc__(ufunc, method, *inputs, **kwargs)

        where = x > 0
        out = xp.zeros(3)
        r = xp.negative(x, where=where.view(Unwraps), out=out)
        try:
            xp.negative(x, where=where.view(Keeps), out=out)
        except TypeError:
            declined = True
        else:
            declined = False
        return r, out, declined
    check(body, np.array([1.0, -2.0, 3.0]))


def test_array_ufunc_given_the_keywords_as_passed():
    # the keywords as the call passed them (where=True and subok included), after NumPy's own
    # checks of their names (an unknown one, sig= with signature=: TypeError, no override)
    def body(xp, x):
        r = Recorder()
        return [xp.multiply(1, r, subok="bar", where=42), xp.add(r, 1, where=True),
                xp.add(r, 1, casting="unsafe", order="C", dtype=None, out=None)]
    check(body, np.arange(3.0))
    for bad in (lambda xp, x: xp.multiply(Recorder(), x, sig="a", signature="a"),
                lambda xp, x: xp.multiply(Recorder(), x, foo="bar")):
        check(bad, np.arange(3.0), message=False)  # (Python's wording names the method)
