"""The engine process over XBoard/CECP and UCI, driven as its clients drive it."""
