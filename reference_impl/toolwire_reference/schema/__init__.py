"""JSON Schema handling: generic walkers, small pure node functions, and one rewrite per target."""
