// Tooling round trip: what a code generator sees. Fetches the live introspection result from
// a running gateway, loads it with graphql-js `buildClientSchema`, and prints it; prints the
// committed SDL file through the same graphql-js build and print. Both sides are then
// normalised the same way: graphql-js's own formatting, and top-level definitions sorted by
// name (introspection does not keep the file's type order); fields, arguments and enum values
// keep their order, so a reordering there still fails.
// Usage: node schema-roundtrip.mjs <url> <schema.graphql>, with the bearer token in
// FABRIC_AUDIT_TOKEN. Prints one JSON object: {live, file} (both normalised SDL).
import { readFileSync } from 'node:fs';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  parse,
  print,
  printSchema,
} from 'graphql';

function normalise(schema) {
  const definitions = [...parse(printSchema(schema)).definitions];
  const key = (d) => `${d.name?.value ?? ''}\u0000${d.kind}`;
  definitions.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return definitions.map((d) => print(d)).join('\n\n') + '\n';
}

const [url, file] = process.argv.slice(2);
const token = process.env.FABRIC_AUDIT_TOKEN;
if (!url || !file || !token) {
  console.error('usage: FABRIC_AUDIT_TOKEN=<token> node schema-roundtrip.mjs <url> <schema.graphql>');
  process.exit(2);
}

// Everything the introspection system can report, so nothing is lost in the round trip.
const query = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
});
const response = await fetch(url, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json',
    authorization: `Bearer ${token}`,
  },
  body: JSON.stringify({ query }),
});
const payload = await response.json();
if (response.status !== 200 || payload.errors || !payload.data) {
  console.log(JSON.stringify({ error: { status: response.status, payload } }));
  process.exit(1);
}
const live = normalise(buildClientSchema(payload.data));
const committed = normalise(buildSchema(readFileSync(file, 'utf8')));
console.log(JSON.stringify({ live, file: committed }));
