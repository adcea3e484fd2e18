"""A projection source: a git repository's history as subjects, edges, episodes and rollups."""
