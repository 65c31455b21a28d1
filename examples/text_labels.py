"""Word statistics on a small text: string arrays, unique counts, argsort, object arrays of
ragged token lists."""
import numpy as np

text = ("the quick brown fox jumps over the lazy dog and the dog sleeps while the fox runs "
        "over the hill and the quick dog follows")
words = np.array(text.split())
vocab, counts = np.unique(words, return_counts=True)
order = np.argsort(-counts, kind="stable")
for w, c in zip(vocab[order][:5], counts[order][:5]):
    print(f"{w:>8} {c}")
lengths = np.char.str_len(vocab)
print("longest:", vocab[lengths == lengths.max()], "mean length:", round(lengths.mean(), 4))
sentences = np.empty(3, dtype=object)
sentences[:] = [text.split()[:5], text.split()[5:12], text.split()[12:]]
print([len(s) for s in sentences], sentences[1][:3])
print(np.char.add(vocab[:4], "!"), np.isin(["fox", "cat"], vocab))
