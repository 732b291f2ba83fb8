"""Background loops (reconcilers): dispatch queued sweeps, reconcile running ones with Ray."""
