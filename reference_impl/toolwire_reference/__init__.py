"""toolwire's reference translator (placeholder; being written)."""
