"""Everything that talks to Ray: the cluster connection, the driver, trials, the Tune callback."""

import os

# Ray 2.59+ clusters require a token and clients send it only in token mode; Ray reads this when
# it is imported, so it is set here, before any module of this package imports Ray.
os.environ.setdefault("RAY_AUTH_MODE", "token")
