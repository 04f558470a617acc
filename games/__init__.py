"""tabletune's game engines and their strategies (numpy/numba only; no tuning imports)."""
