"""The entropy of a random stream the program did not seed."""
from .._core.engine import distributed


def unless_seeded(seed):
    """``seed``; for None (fresh OS entropy) in a distributed run, process 0's fresh entropy,
    the same in every process (``distributed.shared_entropy``: they run one program and draw
    the same numbers); else None, NumPy's own OS entropy."""
    return distributed.shared_entropy() if seed is None else seed
