"""The benchmarks, each run from the checkout as a module: python -m benchmarks.NAME."""
