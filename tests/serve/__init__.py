"""``leyden serve``: its HTTP API and the page in a real browser."""
