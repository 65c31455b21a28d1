"""The JAX stand-ins in tnp's modules replaced by the real objects once JAX is imported.

``tnp._core.engine.jaxload`` gives tnp's modules stand-ins for JAX's (``jax``, ``jnp``,
``ArrayImpl``, ``jit(f)``, ...) until JAX is imported; ``replace``, registered by ``tnp/__init__``
with ``jaxload.on_load``, then rebinds every global of a ``tnp`` module holding one to the
object it stands for, so the device path never pays for the indirection. It lives here, above
``tnp._core``, as the one place that rewrites the globals of tnp's modules.
"""
import sys

from ._core.engine import jaxload


def replace():
    """Rebind each global of a loaded ``tnp`` module that holds a stand-in (``jaxload``)."""
    real = jaxload.replacements()
    for name, module in list(sys.modules.items()):
        if module is not None and (name == "tnp" or name.startswith("tnp.")):
            g = vars(module)
            for attr, value in list(g.items()):
                pair = real.get(id(value))
                if pair is not None and pair[0] is value:
                    g[attr] = pair[1]
