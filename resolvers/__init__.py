"""strawberry types, queries, mutations and per-request dataloaders."""
