"""Image-like array manipulation: fancy indexing, masks, in-place updates, views, plain NumPy."""
import numpy as np

img = (np.arange(64 * 64, dtype=np.float64).reshape(64, 64) % 251) / 250.0
img[10:20, 10:20] = 1.0                     # paint a square (slice write)
rows, cols = np.array([5, 6, 7, 8]), np.array([50, 51, 52, 53])
img[rows, cols] = 0.0                       # fancy-index write
img[img > 0.95] *= 0.5                      # boolean-mask in-place update
flipped = img[::-1, :]                      # a view
flipped[0, :] = 0.25                        # writes through to img's last row
thumb = img[::8, ::8]
print("mean:", img.mean(), "last row mean:", img[-1].mean())
print("thumbnail:\n", np.round(thumb, 3))
hist, edges = np.histogram(img, bins=5, range=(0.0, 1.0))
print("histogram:", hist, np.round(edges, 2))
gray = (img * 255).astype(np.uint8)
print("uint8 stats:", gray.dtype, gray.min(), gray.max(), gray[12, 12], gray.sum(dtype=np.int64))
