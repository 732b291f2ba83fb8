"""Everything that talks to Ray: the cluster connection, the driver, trials, the Tune callback."""

import os
import sys

# Ray 2.59+ clusters require a token and clients send it only in token mode. Ray reads the mode
# when it is imported: it is set here, before any module of this package imports Ray, and a
# process that imported Ray first (a tool, a test harness) has Ray read it again, unless it is
# already connected (a Ray worker: its raylet gave it the cluster's settings, the mode among them)
os.environ.setdefault("RAY_AUTH_MODE", "token")
if "ray._raylet" in sys.modules:
    import ray

    if not ray.is_initialized():
        from service.engine.ray_compat import read_settings_again

        read_settings_again()
