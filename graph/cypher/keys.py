"""API keys and shared secrets, kept in the system scope ($system), not an organisation's:
a key names the organisation it acts for.
"""

from __future__ import annotations

PUT_KEY = """
MERGE (k:ApiKey {org_id: $system, key_id: $key_id})
SET k.secret_hash = $secret_hash, k.key_org = $key_org, k.actor = $actor,
    k.scopes = $scopes, k.revoked = $revoked
"""

GET_KEY = """
MATCH (k:ApiKey {org_id: $system, key_id: $key_id})
RETURN k.key_id, k.secret_hash, k.key_org, k.actor, k.scopes, k.revoked
"""

LIST_KEYS = """
MATCH (k:ApiKey {org_id: $system})
WHERE $key_org IS NULL OR k.key_org = $key_org
RETURN k.key_id, k.secret_hash, k.key_org, k.actor, k.scopes, k.revoked
ORDER BY k.key_id
"""

# A named secret shared by every gateway instance, created once (the first value wins).
SHARED_VALUE = """
MERGE (s:Secret {org_id: $system, name: $name})
ON CREATE SET s.value = $value
RETURN s.value
"""

REVOKE_KEY = """
MATCH (k:ApiKey {org_id: $system, key_id: $key_id})
SET k.revoked = true
RETURN count(k)
"""
