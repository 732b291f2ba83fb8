"""The raysweep server: REST API, controller loops, the Ray engine and the SQL store."""
