"""The tnp_ext examples run: the MLP classifier trains (tf.train Adam, jitted in-place steps)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "examples"))


def test_train_mlp_example_learns():
    import train_mlp
    assert train_mlp.main(steps=60) > 0.6  # three classes: chance is 1/3
