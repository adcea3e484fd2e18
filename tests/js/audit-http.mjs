// GraphQL-over-HTTP conformance: runs graphql-http's server audit against a running gateway.
// Usage: node audit-http.mjs <url>, with the bearer token in FABRIC_AUDIT_TOKEN (an environment
// variable, not an argument, so it never shows in a process listing).
// Prints one JSON object: counts per requirement level and every audit that did not pass.
import { auditServer } from 'graphql-http';

const url = process.argv[2];
const token = process.env.FABRIC_AUDIT_TOKEN;
if (!url || !token) {
  console.error('usage: FABRIC_AUDIT_TOKEN=<token> node audit-http.mjs <url>');
  process.exit(2);
}

// Every audit request carries the token: the gateway refuses anonymous requests.
function fetchFn(input, init = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(input, { ...init, headers });
}

const results = await auditServer({ url, fetchFn });
const counts = {};
const failures = [];
for (const result of results) {
  const level = result.name.split(' ')[0];
  counts[level] ??= { ok: 0, total: 0 };
  counts[level].total += 1;
  if (result.status === 'ok') {
    counts[level].ok += 1;
    continue;
  }
  let body = null;
  try {
    body = await result.response.text();
  } catch {
    body = null; // already read by the audit itself
  }
  failures.push({
    id: result.id,
    name: result.name,
    status: result.status,
    reason: result.reason,
    httpStatus: result.response?.status ?? null,
    contentType: result.response?.headers?.get('content-type') ?? null,
    body,
  });
}
console.log(JSON.stringify({ counts, failures }));
