"""Fact providers and their registry."""

from __future__ import annotations

from engine.ports import FactSource
from engine.providers.base import Provider, ProviderResult, Window
from engine.providers.changes import ChangesProvider
from engine.providers.contributions import BusFactorProvider, ChurnProvider
from engine.providers.contributors import ContributorsProvider
from engine.providers.records import (
    ActivityProvider,
    DeliveryProvider,
    DeployProvider,
    IncidentProvider,
    ScheduleProvider,
)
from engine.providers.relations import OwnershipProvider, ProfileProvider


def default_providers() -> list[Provider]:
    return [
        DeliveryProvider(),
        IncidentProvider(),
        ScheduleProvider(),
        DeployProvider(),
        OwnershipProvider(),
        ActivityProvider(),
        ProfileProvider(),
        ChurnProvider(),
        ContributorsProvider(),
        BusFactorProvider(),
        ChangesProvider(),
    ]


__all__ = ["FactSource", "Provider", "ProviderResult", "Window", "default_providers"]
