"""The wheel built, installed in a fresh environment and run from outside the checkout."""
