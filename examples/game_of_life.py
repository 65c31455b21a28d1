"""Conway's Game of Life on a torus, in plain NumPy."""
import numpy as np

board = np.zeros((32, 32), dtype=np.int8)
board[1, 2] = board[2, 3] = board[3, 1] = board[3, 2] = board[3, 3] = 1   # a glider
board[10:13, 20] = 1                                                       # a blinker
for generation in range(40):
    neighbours = sum(np.roll(np.roll(board, dy, axis=0), dx, axis=1)
                     for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
    board = ((neighbours == 3) | ((board == 1) & (neighbours == 2))).astype(np.int8)
    if generation % 10 == 0:
        print(f"generation {generation}: {int(board.sum())} alive")
print("alive cells at the end:", np.argwhere(board).tolist())
print(board.dtype, board.shape)
