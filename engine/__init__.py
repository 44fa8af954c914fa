"""Leyden's engine process: command line, XBoard/CECP and UCI loops, match runner."""
