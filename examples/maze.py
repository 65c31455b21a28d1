"""A maze solved by breadth-first search with boolean masks, in plain NumPy: the frontier is a
mask that grows by shifted copies of itself, minus walls and cells already reached; the path is
then walked back from the goal and drawn with ``np.where``."""
import numpy as np

rng = np.random.default_rng(7)
h, w = 31, 61
walls = rng.random((h, w)) < 0.3
walls[0, :] = walls[-1, :] = walls[:, 0] = walls[:, -1] = True
start, goal = (1, 1), (h - 2, w - 2)
walls[start] = walls[goal] = False

dist = np.full((h, w), -1)
dist[start] = 0
frontier = np.zeros((h, w), dtype=bool)
frontier[start] = True
step = 0
while frontier.any() and dist[goal] < 0:
    step += 1
    grown = np.zeros_like(frontier)
    grown[1:, :] |= frontier[:-1, :]
    grown[:-1, :] |= frontier[1:, :]
    grown[:, 1:] |= frontier[:, :-1]
    grown[:, :-1] |= frontier[:, 1:]
    frontier = grown & ~walls & (dist < 0)
    dist[frontier] = step
print("cells reached:", int((dist >= 0).sum()), "of", int((~walls).sum()), "open")

if dist[goal] < 0:
    print("no path from", start, "to", goal)
else:
    print("shortest path:", int(dist[goal]), "steps")
    path = np.zeros((h, w), dtype=bool)
    r, c = goal
    while (r, c) != start:
        path[r, c] = True
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if dist[r + dr, c + dc] == dist[r, c] - 1:
                r, c = r + dr, c + dc
                break
    path[start] = True
    picture = np.where(walls, "#", " ")
    picture[path] = "*"
    for row in picture:
        print("".join(row))
