"""Code that runs on Ray Train workers: the bundled trainers and the kit they share."""
