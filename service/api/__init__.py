"""FastAPI app: thin routes over the use cases."""
