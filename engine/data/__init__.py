"""Data files the engine ships: ``crib_table.json``, the expected crib by thrown cards."""
