"""The search: limits, clocks, tactics and the bench signature."""
