"""Export a tnp function for serving: StableHLO bytes via ``jax.export`` (TF's SavedModel role).

``export(fn, *example_args)`` traces ``fn`` for the example arguments' shapes and dtypes;
``deserialize(blob)`` (in any process) gives back a callable on tnp arrays.
"""
import jax
from jax import export as jax_export

from ._convert import to_jax_tree, to_tnp_tree


def export(fn, *example_args):
    specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in to_jax_tree(example_args)]
    pure = jax.jit(lambda *a: to_jax_tree(fn(*to_tnp_tree(a))))
    return bytes(jax_export.export(pure)(*specs).serialize())


class Deserialized:
    """A served function: takes and returns tnp arrays."""

    def __init__(self, blob):
        self._exported = jax_export.deserialize(bytearray(blob))
        self.in_avals = self._exported.in_avals
        self.out_avals = self._exported.out_avals

    def __call__(self, *args):
        return to_tnp_tree(self._exported.call(*to_jax_tree(args)))


def deserialize(blob):
    return Deserialized(blob)
