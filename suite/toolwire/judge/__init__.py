"""The judge: whether a check applies to an implementation, running it through an adapter, and the verdict."""
