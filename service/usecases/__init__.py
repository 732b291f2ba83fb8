"""Use cases: one function per operation, each owning its transaction."""
