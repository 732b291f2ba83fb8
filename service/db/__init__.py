"""SQL store: ORM models, engine/session setup, migrations and repositories."""
