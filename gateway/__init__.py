"""HTTP composition root: settings, auth, app factory, CLI."""
