"""JSON Schema handling: one generic walker, and small pure rewrites composed per target."""
