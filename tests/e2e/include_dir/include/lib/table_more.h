/* More rows of include/lib/table.h (include_dir.sh, 8). */
ROW(beta, "beta")
