"""The pure domain: models, time context, resolution, planning, synthesis, contracts."""
