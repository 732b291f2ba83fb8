"""ORM models (on ``service.db.base``), one module per domain: ``sweeps`` (experiments, trials,
results, events), ``access`` (projects, tokens, code packages, the compute ledger), ``registry``
(final runs, model versions, aliases, deployments) and ``schedules`` (schedules, webhooks). The
schema itself is only ever changed by a migration in ``migrations/``.

Importing this package defines every table on ``Base.metadata`` (migrations and tests rely on
it)."""

from service.db.models import access, registry, schedules, sweeps

__all__ = ["access", "registry", "schedules", "sweeps"]
